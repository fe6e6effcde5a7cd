import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import { assert, describe, it } from "@effect/vitest"
import { TID } from "@atproto/common-web"
import { ConfigProvider, Effect, Fiber, Layer, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import { afterAll, beforeAll } from "vitest"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import { network as blueskyNetwork } from "../../../adapters/networks/bluesky/index.ts"
import { enable } from "../../../hosts/networks.ts"
import { AccountRepo } from "../../../application/ports/AccountRepo.ts"
import { JobQueue } from "../../../application/ports/JobQueue.ts"
import { Publishers, type PublishRequest } from "../../../application/ports/Publishers.ts"
import { connectInBrowser } from "../../support/connect.ts"
import { credentialsFor, storeCredentials } from "../../../application/usecases/credentials.ts"
import { REST_UPLOAD_LIMIT, uploadMedia } from "../../../application/usecases/media/upload.ts"
import { createPost } from "../../../application/usecases/posts/create.ts"
import { getPost } from "../../../application/usecases/posts/query.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import type { Actor } from "../../../domain/apiKey.ts"
import { blueskyCore, pipelineOptions, startPage, watchedFetch, workspace } from "./host.ts"
import { type LocalPds, type PdsAccount, startPds } from "./pds.ts"
import type { CreatePostBody } from "../../../domain/contract/postRequest.ts"

let pds: LocalPds
let page: Awaited<ReturnType<typeof startPage>>
let alice: PdsAccount
let video: { mp4: Buffer; webm: Buffer }

beforeAll(async () => {
  pds = await startPds()
  alice = await pds.account("alice")
  const png = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#884422" } })
    .png()
    .toBuffer()
  page = await startPage(
    () => `<html><head><meta property="og:title" content="A page"><meta name="description" content="Its words.">
<meta property="og:image" content="/card.png"></head></html>`,
    png
  )
  const dir = mkdtempSync(join(tmpdir(), "herald-bsky-"))
  const clip = (name: string, args: ReadonlyArray<string>) => {
    execFileSync(ffmpeg.path, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=320x240:rate=15",
      "-t",
      "1",
      ...args,
      join(dir, name)
    ])
    return readFileSync(join(dir, name))
  }
  video = {
    mp4: clip("clip.mp4", ["-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"]),
    webm: clip("clip.webm", ["-c:v", "libvpx"])
  }
}, 120_000)

afterAll(async () => {
  await page?.close()
  await pds?.close()
})

/** Each test: the in-memory host with Bluesky on the PDS, through a watched fetch. */
const withBluesky = <A, E>(body: (watched: ReturnType<typeof watchedFetch>) => Effect.Effect<A, E, any>) => {
  const watched = watchedFetch()
  return body(watched).pipe(Effect.provide(blueskyCore({ serviceUrl: pds.url, fetch: watched.fetch })))
}

const connect = (person: Actor, who: PdsAccount) =>
  Effect.gen(function* () {
    return (yield* connectInBrowser(person, "bluesky", { handle: who.handle, appPassword: who.appPassword })).account.id
  })

const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

const upload = (actor: Actor, name: string, bytes: Uint8Array) =>
  Effect.map(uploadMedia(actor, name, Stream.make(bytes), REST_UPLOAD_LIMIT), (r) => r.media.id)

const targetOf = (actor: Actor, id: string) => Effect.map(getPost(actor, id), (r) => r.post.targets[0]!)

const rkeyOf = (uri: string) => uri.split("/").pop()!

const readRecord = (who: PdsAccount, uri: string) =>
  Effect.promise(() =>
    who.owner.com.atproto.repo.getRecord({ repo: who.did, collection: "app.bsky.feed.post", rkey: rkeyOf(uri) })
  ).pipe(Effect.map((r) => ({ uri: r.data.uri, cid: r.data.cid!, value: r.data.value as any })))

const postCount = (who: PdsAccount) =>
  Effect.promise(() =>
    who.owner.com.atproto.repo.listRecords({ repo: who.did, collection: "app.bsky.feed.post", limit: 100 })
  ).pipe(Effect.map((r) => r.data.records.length))

/** The account's credentials as the pipeline would use them, with the access token replaced. */
const replaceAccessToken = (person: Actor, accountId: string, accessToken: string) =>
  Effect.gen(function* () {
    const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(person.workspaceId, accountId))
    const current = Option.getOrThrow(yield* credentialsFor(account))
    yield* storeCredentials(accountId, { ...current, accessToken })
    return current
  })

describe("Bluesky's configuration", () => {
  const networkWith = (env: Record<string, string>) =>
    enable(blueskyNetwork).pipe(
      Effect.provide(
        MemoryBlobStore.layer("http://herald.test").pipe(Layer.provide(HmacFileLinks.layer("herald test secret")))
      ),
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
    )

  it.effect("offered unless BLUESKY_ENABLED=false; handles log in at BLUESKY_SERVICE_URL", () =>
    Effect.gen(function* () {
      assert.isTrue(Option.isNone(yield* networkWith({ BLUESKY_ENABLED: "false", BLUESKY_SERVICE_URL: pds.url })))
      const offered = Option.getOrThrow(yield* networkWith({ BLUESKY_SERVICE_URL: pds.url }))
      assert.strictEqual(offered.platform, "bluesky")
      const [connection] = yield* offered.connector.complete({
        params: { handle: alice.handle, appPassword: alice.appPassword },
        callbackUrl: "",
        verifier: null
      })
      assert.deepStrictEqual(connection!.profile, {
        externalId: alice.did,
        name: alice.handle,
        username: alice.handle,
        avatarUrl: null
      })
      assert.strictEqual(connection!.credentials?.extra?.serviceUrl, pds.url)
    })
  )
})

describe("Bluesky publishing through the pipeline, against a real PDS", () => {
  it.effect("two images: each re-encoded under the blob limit, aspect kept; no link card beside media", () =>
    withBluesky(() =>
      Effect.gen(function* () {
        const { person, agent } = yield* workspace
        const accountId = yield* connect(person, alice)
        // Noise does not compress: ~6 MB as uploaded, far over Bluesky's 1 MB.
        const large = yield* Effect.promise(() =>
          sharp({
            create: {
              width: 3000,
              height: 2000,
              channels: 3,
              background: "#000000",
              noise: { type: "gaussian", mean: 128, sigma: 30 }
            }
          })
            .jpeg({ quality: 95 })
            .toBuffer()
        )
        const small = yield* Effect.promise(() =>
          sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } } })
            .png()
            .toBuffer()
        )
        assert.isAbove(large.length, 2_000_000)
        const mediaIds = [yield* upload(agent, "large.jpg", large), yield* upload(agent, "small.png", small)]
        const id = yield* post(agent, {
          accountIds: [accountId],
          content: `Two pictures ${page.origin}/ignored`,
          mediaIds
        })
        yield* publishDueTargets(pipelineOptions, 10)
        const target = yield* targetOf(agent, id)
        assert.strictEqual(target.status, "published")
        const { value } = yield* readRecord(alice, target.externalId!)
        assert.strictEqual(value.embed.$type, "app.bsky.embed.images")
        const [first, second] = value.embed.images
        assert.strictEqual(first.image.mimeType, "image/jpeg")
        assert.strictEqual(first.alt, "")
        assert.closeTo(first.aspectRatio.width / first.aspectRatio.height, 1.5, 0.002, "3:2 kept")
        assert.isAtMost(first.aspectRatio.width, 2000)
        assert.strictEqual(second.image.mimeType, "image/png")
        assert.deepStrictEqual(second.aspectRatio, { width: 400, height: 300 })
        for (const image of [first, second]) {
          const stored = yield* Effect.promise(() =>
            alice.owner.com.atproto.sync.getBlob({ did: alice.did, cid: image.image.ref.toString() })
          )
          assert.isAtMost(stored.data.length, 1_000_000)
          assert.strictEqual(stored.data.length, image.image.size)
        }
      })
    )
  )

  it.effect(
    "an MP4 video goes as a blob with app.bsky.embed.video; another container is refused with a clear reason",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const id = yield* post(agent, {
            accountIds: [accountId],
            content: "A clip",
            mediaIds: [yield* upload(agent, "clip.mp4", video.mp4)]
          })
          yield* publishDueTargets(pipelineOptions, 10)
          const { value } = yield* readRecord(alice, (yield* targetOf(agent, id)).externalId!)
          assert.strictEqual(value.embed.$type, "app.bsky.embed.video")
          assert.strictEqual(value.embed.video.mimeType, "video/mp4")
          assert.strictEqual(value.embed.video.size, video.mp4.length)
          assert.deepStrictEqual(value.embed.aspectRatio, { width: 320, height: 240 })

          const uploads = watched.count("com.atproto.repo.uploadBlob")
          const webm = yield* post(agent, {
            accountIds: [accountId],
            content: "Another clip",
            mediaIds: [yield* upload(agent, "clip.webm", video.webm)]
          })
          yield* publishDueTargets(pipelineOptions, 10)
          const refused = yield* targetOf(agent, webm)
          assert.strictEqual(refused.status, "failed")
          assert.strictEqual(refused.error?.code, "upstream_rejected")
          assert.include(refused.error?.message ?? "", "MP4")
          assert.strictEqual(watched.count("com.atproto.repo.uploadBlob"), uploads, "nothing uploaded for it")
        })
      )
  )

  it.effect(
    "a thread and a first comment are replies whose root and parent are strong references to the right posts",
    () =>
      withBluesky(() =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const id = yield* post(agent, {
            accountIds: [accountId],
            content: "1/3 A thread",
            thread: ["2/3 goes on", "3/3 ends"],
            firstComment: "Comment below"
          })
          yield* publishDueTargets(pipelineOptions, 10)
          yield* TestClock.adjust(pipelineOptions.firstCommentDelayMs)
          yield* publishDueTargets(pipelineOptions, 10)
          const target = yield* targetOf(agent, id)
          assert.strictEqual(target.firstComment?.status, "published")
          const root = yield* readRecord(alice, target.externalId!)
          const second = yield* readRecord(alice, target.thread[0]!.externalId)
          const third = yield* readRecord(alice, target.thread[1]!.externalId)
          const comment = yield* readRecord(alice, target.firstComment!.externalId!)
          const ref = (r: { uri: string; cid: string }) => ({ uri: r.uri, cid: r.cid })
          assert.isUndefined(root.value.reply)
          assert.deepStrictEqual(
            [second.value.text, third.value.text, comment.value.text],
            ["2/3 goes on", "3/3 ends", "Comment below"]
          )
          assert.deepStrictEqual(second.value.reply, { root: ref(root), parent: ref(root) })
          assert.deepStrictEqual(third.value.reply, { root: ref(root), parent: ref(second) })
          assert.deepStrictEqual(comment.value.reply, { root: ref(root), parent: ref(root) })
        })
      )
  )

  it.effect(
    "an answer lost after the post landed: the next try reads the chosen record key back, and posting again with it adds nothing",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const before = yield* postCount(alice)
          const delivered = watched.loseAnswer("com.atproto.repo.createRecord")
          const id = yield* post(agent, { accountIds: [accountId], content: "Lost in transit" })
          const first = yield* Effect.forkChild(publishDueTargets(pipelineOptions, 10))
          yield* Effect.promise(() => delivered)
          // The pipeline gives up on the call that never answered; the record is on the PDS already.
          yield* TestClock.adjust(pipelineOptions.publishTimeoutMs)
          yield* Fiber.join(first)
          assert.notStrictEqual((yield* targetOf(agent, id)).status, "published")
          assert.strictEqual(yield* postCount(alice), before + 1)
          yield* TestClock.adjust(pipelineOptions.backoffMs(1))
          yield* publishDueTargets(pipelineOptions, 10)
          const target = yield* targetOf(agent, id)
          assert.strictEqual(target.status, "published")
          assert.strictEqual(
            watched.count("com.atproto.repo.createRecord"),
            0,
            "no second create: the only one lost its answer"
          )
          assert.strictEqual(yield* postCount(alice), before + 1)
          assert.strictEqual((yield* readRecord(alice, target.externalId!)).value.text, "Lost in transit")

          // The publisher asked directly with the same key: Published, the same record, nothing new.
          const publisher = Option.getOrThrow((yield* Publishers).get("bluesky"))
          const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(person.workspaceId, accountId))
          const request: PublishRequest = {
            account,
            credentials: Option.getOrNull(yield* credentialsFor(account)),
            postId: id,
            content: "Lost in transit",
            media: [],
            poll: null,
            cover: null,
            coverMedia: null,
            tiktokAiGenerated: false,
            replyTo: null
          }
          const again = yield* publisher.publish(request, rkeyOf(target.externalId!))
          assert.deepStrictEqual(again, {
            _tag: "Published",
            published: { externalId: target.externalId!, url: target.url }
          })
          assert.strictEqual(yield* postCount(alice), before + 1)
          assert.deepStrictEqual(yield* publisher.recover!(request, TID.nextStr()), { _tag: "NotPublished" })
        })
      )
  )

  it.effect(
    "an access token Bluesky refuses as expired is renewed with refreshSession (no new log-in) and the post goes out",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const logins = watched.count("com.atproto.server.createSession")
          const before = yield* replaceAccessToken(person, accountId, pds.expiredAccessJwt(alice.did))
          const id = yield* post(agent, { accountIds: [accountId], content: "After the token expired" })
          yield* publishDueTargets(pipelineOptions, 10)
          assert.strictEqual((yield* targetOf(agent, id)).status, "published")
          const creates = watched.calls.filter((c) => c.method === "com.atproto.repo.createRecord")
          assert.deepStrictEqual(
            creates.map((c) => c.status),
            [400, 200]
          )
          assert.notStrictEqual(creates[0]!.authorization, creates[1]!.authorization)
          assert.strictEqual(watched.count("com.atproto.server.refreshSession"), 1)
          assert.strictEqual(watched.count("com.atproto.server.createSession"), logins)
          const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(person.workspaceId, accountId))
          const after = Option.getOrThrow(yield* credentialsFor(account))
          assert.notStrictEqual(after.refreshToken, before.refreshToken, "the rotated refresh token is stored")
          assert.strictEqual(`Bearer ${after.accessToken}`, creates[1]!.authorization)
        })
      )
  )

  it.effect("an access token about to end is renewed before the call", () =>
    withBluesky((watched) =>
      Effect.gen(function* () {
        const { person, agent } = yield* workspace
        const accountId = yield* connect(person, alice)
        const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(person.workspaceId, accountId))
        const current = Option.getOrThrow(yield* credentialsFor(account))
        const id = yield* post(agent, { accountIds: [accountId], content: "Just in time" })
        yield* TestClock.setTime(current.expiresAt! - 60_000)
        yield* publishDueTargets(pipelineOptions, 10)
        assert.strictEqual((yield* targetOf(agent, id)).status, "published")
        assert.deepStrictEqual(
          watched.calls.filter((c) => c.method === "com.atproto.repo.createRecord").map((c) => c.status),
          [200]
        )
        assert.strictEqual(watched.count("com.atproto.server.refreshSession"), 1)
      })
    )
  )

  it.effect(
    "a revoked app password: the account needs reconnection, its post fails, and Bluesky is not asked again",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const carol = yield* Effect.promise(() => pds.account(`carol${Date.now().toString(36)}`))
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, carol)
          yield* Effect.promise(() => carol.owner.com.atproto.server.revokeAppPassword({ name: "Herald" }))
          // Access tokens outlive a revocation until they end; this one has.
          yield* replaceAccessToken(person, accountId, pds.expiredAccessJwt(carol.did))
          const id = yield* post(agent, { accountIds: [accountId], content: "Nobody will see this" })
          yield* publishDueTargets(pipelineOptions, 10)
          const target = yield* targetOf(agent, id)
          assert.strictEqual(target.status, "failed")
          assert.strictEqual(target.error?.code, "account_needs_reconnection")
          assert.include(target.error?.message ?? "", "Invalid identifier or password")
          const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(person.workspaceId, accountId))
          assert.strictEqual(account.status, "needs_reconnection")
          const seen = () => watched.calls.map((c) => `${c.method} ${c.status}`)
          const expected = [
            "com.atproto.server.createSession 200",
            "com.atproto.repo.getRecord 400", // connecting (carol has no profile record)
            "com.atproto.repo.createRecord 400",
            "com.atproto.server.refreshSession 400",
            "com.atproto.server.createSession 401"
          ]
          assert.deepStrictEqual(seen(), expected)
          const refused = yield* Effect.flip(createPost(agent, { accountIds: [accountId], content: "Again" }, null))
          assert.strictEqual(refused.code, "account_needs_reconnection")
          yield* TestClock.adjust("2 hours")
          yield* publishDueTargets(pipelineOptions, 10)
          assert.deepStrictEqual(seen(), expected, "no retry loop")
        })
      )
  )

  it.effect(
    "a 429 with RateLimit-Reset: the post waits for the reset, and no call is made for the account before it",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const reset = Math.ceil(Date.now() / 1000) + 90
          watched.script(
            "com.atproto.repo.createRecord",
            () =>
              new Response(JSON.stringify({ error: "RateLimitExceeded", message: "Rate Limit Exceeded" }), {
                status: 429,
                headers: {
                  "content-type": "application/json",
                  "ratelimit-limit": "5000",
                  "ratelimit-remaining": "0",
                  "ratelimit-reset": String(reset),
                  "ratelimit-policy": "5000;w=3600"
                }
              })
          )
          const first = yield* post(agent, { accountIds: [accountId], content: "Busy hour" })
          yield* publishDueTargets(pipelineOptions, 10)
          const waiting = (yield* (yield* JobQueue).pending()).map((j) => j.runAt)
          assert.strictEqual(waiting.length, 1)
          assert.isAtLeast(waiting[0]!, 88_000)
          assert.isAtMost(waiting[0]!, 91_000)
          assert.notStrictEqual((yield* targetOf(agent, first)).status, "failed")

          // Another post to the same account meanwhile: held back without a call.
          const second = yield* post(agent, { accountIds: [accountId], content: "Meanwhile" })
          yield* publishDueTargets(pipelineOptions, 10)
          assert.strictEqual(watched.count("com.atproto.repo.createRecord"), 1)
          assert.notStrictEqual((yield* targetOf(agent, second)).status, "published")

          yield* TestClock.adjust(92_000)
          yield* publishDueTargets(pipelineOptions, 10)
          assert.strictEqual((yield* targetOf(agent, first)).status, "published")
          assert.strictEqual((yield* targetOf(agent, second)).status, "published")
          assert.deepStrictEqual(
            watched.calls.filter((c) => c.method === "com.atproto.repo.createRecord").map((c) => c.status),
            [429, 200, 200]
          )
        })
      )
  )
})
