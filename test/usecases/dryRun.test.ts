import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { CredentialStore } from "../../application/ports/CredentialStore.ts"
import { TokenVault } from "../../application/ports/TokenVault.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { storeCredentials } from "../../application/usecases/credentials.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { signUp } from "../../application/usecases/signup.ts"
import type { Account } from "../../domain/account.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"
import type { Platform } from "../../domain/platforms.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const NOW = Date.parse("2026-11-24T09:00:00Z")
const DAY = 86_400_000

const setUp = Effect.gen(function* () {
  yield* TestClock.setTime(NOW)
  const { body } = yield* signUp({ body: { email: "dry@herald-customer.org" }, ip: "1.1.1.1" })
  const actor = yield* authenticateKey(body.apiKey!)
  const repo = yield* AccountRepo
  const add = (platform: Platform, status: Account["status"] = "connected") =>
    repo.upsert({
      id: `acc_${platform}${status === "connected" ? "" : "_stale"}`,
      workspaceId: actor.workspaceId,
      platform,
      name: platform,
      username: `${platform}user`,
      avatarUrl: null,
      status,
      connectedAt: NOW,
      externalId: `${platform}-${status}`
    })
  return { actor, add }
})

/** The dry run's body; fails the test when the call gave an error or created a post. */
const dryRun = (actor: Parameters<typeof createPost>[0], body: CreatePostBody) =>
  Effect.map(createPost(actor, { ...body, dryRun: true }, null), (result) => {
    if (result.kind !== "dryRun") throw new Error(`expected a dry run, got ${result.kind}`)
    return result.body
  })

describe("dry run, per target", () => {
  it.effect("each target shows its final content and its length by its network's counting", () =>
    Effect.gen(function* () {
      const { actor, add } = yield* setUp
      const [x, bluesky, linkedin] = [yield* add("x"), yield* add("bluesky"), yield* add("linkedin")]
      const text = `Launch 🚀 https://example.org/${"a".repeat(60)}`
      const result = yield* dryRun(actor, { accountIds: [x.id, bluesky.id, linkedin.id], content: text })
      assert.strictEqual(result.valid, true)
      assert.deepStrictEqual(
        result.targets.map((t) => [t.accountId, t.platform, t.username, t.content, t.length]),
        [
          // X: "Launch " 7 + the emoji 2 + " " 1 + a link 23; Bluesky counts graphemes; LinkedIn characters (the emoji is two UTF-16 units, one character).
          [x.id, "x", "xuser", text, { used: 33, limit: 280 }],
          [
            bluesky.id,
            "bluesky",
            "blueskyuser",
            text,
            { used: [...new Intl.Segmenter().segment(text)].length, limit: 300 }
          ],
          [linkedin.id, "linkedin", "linkedinuser", text, { used: [...text].length, limit: 3000 }]
        ]
      )
      assert.deepStrictEqual(
        result.targets.map((t) => t.warnings),
        [[], [], []]
      )
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a text close to X's limit is said on X's target only, by X's own counting", () =>
    Effect.gen(function* () {
      const { actor, add } = yield* setUp
      const [x, linkedin] = [yield* add("x"), yield* add("linkedin")]
      const result = yield* dryRun(actor, { accountIds: [x.id, linkedin.id], content: "文".repeat(130) })
      assert.deepStrictEqual(result.targets[0].length, { used: 260, limit: 280 })
      assert.deepStrictEqual(result.targets[0].warnings, [
        "The X text uses 260 of 280 X's weighted characters (a link counts 23, an emoji or a CJK character 2)."
      ])
      assert.deepStrictEqual(result.targets[1].warnings, [])
      assert.include(result.warnings, result.targets[0].warnings[0])
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect(
    "an account needing reconnection is a warning on its target and makes the dry run invalid; a real create is refused",
    () =>
      Effect.gen(function* () {
        const { actor, add } = yield* setUp
        const [ok, stale] = [yield* add("sandbox"), yield* add("x", "needs_reconnection")]
        const result = yield* dryRun(actor, { accountIds: [ok.id, stale.id], content: "Hello" })
        assert.strictEqual(result.valid, false)
        assert.deepStrictEqual(result.targets[0].warnings, [])
        assert.match(
          result.targets[1].warnings[0],
          /needs reconnecting: connect it again with GET \/connect\/x.*account_needs_reconnection/
        )
        const refused = yield* Effect.flip(createPost(actor, { accountIds: [ok.id, stale.id], content: "Hello" }, null))
        assert.strictEqual(refused.code, "account_needs_reconnection")
      }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a token that ends before scheduledFor, with no refresh token, is a warning on that target only", () =>
    Effect.gen(function* () {
      const { actor, add } = yield* setUp
      const [x, bluesky] = [yield* add("x"), yield* add("bluesky")]
      yield* storeCredentials(x.id, { accessToken: "at", refreshToken: null, expiresAt: NOW + 2 * DAY })
      const soon = yield* dryRun(actor, {
        accountIds: [x.id, bluesky.id],
        content: "Soon",
        scheduledFor: new Date(NOW + DAY).toISOString()
      })
      assert.deepStrictEqual(
        soon.targets.map((t) => t.warnings),
        [[], []]
      )
      const late = yield* dryRun(actor, {
        accountIds: [x.id, bluesky.id],
        content: "Late",
        scheduledFor: new Date(NOW + 3 * DAY).toISOString()
      })
      assert.strictEqual(late.valid, true)
      assert.match(late.targets[0].warnings[0], /can post only until 2026-11-26T09:00:00.000Z, before this post is due/)
      assert.deepStrictEqual(late.targets[1].warnings, [])
      assert.include(late.warnings, late.targets[0].warnings[0])
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect(
    "the grant's end comes from the lifetime the store keeps in clear, no token opened; older credentials without one are opened",
    () =>
      Effect.gen(function* () {
        const { actor, add } = yield* setUp
        const [x, linkedin] = [yield* add("x"), yield* add("linkedin")]
        const store = yield* CredentialStore
        // Not a sealed value: opening it would fail, so a warning proves it was not opened.
        yield* store.put(x.id, {
          sealed: "not sealed",
          expiresAt: NOW + 2 * DAY,
          refreshable: false,
          refreshExpiresAt: null
        })
        const sealedOld = yield* (yield* TokenVault).seal(
          JSON.stringify({ accessToken: "at", refreshToken: null, expiresAt: NOW + 2 * DAY })
        )
        yield* store.put(linkedin.id, { sealed: sealedOld, expiresAt: NOW + 2 * DAY })
        const late = yield* dryRun(actor, {
          accountIds: [x.id, linkedin.id],
          content: "Late",
          scheduledFor: new Date(NOW + 3 * DAY).toISOString()
        })
        for (const target of late.targets)
          assert.match(target.warnings[0] ?? "", /can post only until 2026-11-26T09:00:00.000Z/)
      }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("rule and media-reach warnings land on the targets they concern; post-wide ones stay top-level only", () =>
    Effect.gen(function* () {
      const { actor, add } = yield* setUp
      const [x, instagram] = [yield* add("x"), yield* add("instagram")]
      yield* (yield* MediaRepo).insert({
        id: "med_png",
        workspaceId: actor.workspaceId,
        type: "image",
        mimeType: "image/png",
        filename: "a.png",
        sizeBytes: 10,
        width: 100,
        height: 100,
        durationMs: null,
        blobKey: "med_png",
        previewKey: null,
        createdAt: NOW,
        expiresAt: NOW + DAY
      })
      const result = yield* dryRun(actor, {
        accountIds: [x.id, instagram.id],
        content: "Hi",
        mediaIds: ["med_png"],
        tiktokAiGenerated: true,
        discord: { threadName: "Ignored" }
      })
      assert.deepStrictEqual(result.targets[0].warnings, [])
      const [jpeg, reach] = result.targets[1].warnings
      assert.strictEqual(jpeg, "Instagram takes JPEG images only: Herald sends the others as converted copies.")
      // Instagram downloads the media by URL, and the test host's public URL is not on the internet.
      assert.match(reach!, /^Instagram download media from Herald by URL, but herald.test is/)
      assert.strictEqual(result.targets[1].warnings.length, 2)
      assert.include(result.warnings, "tiktokAiGenerated is ignored: no TikTok account is targeted.")
      assert.include(result.warnings, "discord is ignored: no Discord account is targeted.")
      assert.include(result.warnings, result.targets[1].warnings[0])
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
