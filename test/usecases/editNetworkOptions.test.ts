import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { updatePost } from "../../application/usecases/posts/update.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatePostBody, UpdatePostBody } from "../../domain/contract/postRequest.ts"
import type { Platform } from "../../domain/platforms.ts"
import { at, pipelineLayer, setUp, storedPost } from "../scheduler/support.ts"

const HOUR = 3_600_000

const create = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post
  })

/** An edit, stored. */
const edit = (actor: Actor, id: string, body: UpdatePostBody) => updatePost(actor, id, body)

/** An edit's dry run: what each target would get differently. */
const changesOf = (actor: Actor, id: string, body: UpdatePostBody) =>
  Effect.map(updatePost(actor, id, { ...body, dryRun: true }), (r) => {
    if (!("changes" in r)) throw new Error("expected a dry run")
    return r.changes.map((c) => [c.platform, c.change, c.fields])
  })

const addAccount = (actor: Actor, id: string, platform: Platform) =>
  Effect.flatMap(AccountRepo, (accounts) =>
    accounts.upsert({
      id,
      workspaceId: actor.workspaceId,
      platform,
      name: id,
      username: id,
      avatarUrl: null,
      status: "connected",
      connectedAt: 0,
      externalId: id
    })
  )

const event = { title: "Bread workshop", startDate: "2026-12-05", endDate: "2026-12-05" }

describe("an edit and the per-network objects (mastodon, discord, googleBusiness)", () => {
  it.effect("an edit that leaves them out keeps them; one that changes them names the request's field", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      yield* addAccount(f.agent, "acc_gbp", "google_business")
      yield* addAccount(f.agent, "acc_md", "mastodon")
      const post = yield* create(f.agent, {
        accountIds: ["acc_gbp", "acc_md"],
        content: "Workshop on Saturday",
        scheduledFor: at(2 * HOUR),
        googleBusiness: { topicType: "EVENT", event },
        mastodon: { visibility: "unlisted" }
      })
      assert.deepStrictEqual(yield* changesOf(f.agent, post.id, { content: "Workshop on Sunday" }), [
        ["google_business", "changed", ["content"]],
        ["mastodon", "changed", ["content"]]
      ])
      assert.deepStrictEqual(
        yield* changesOf(f.agent, post.id, {
          googleBusiness: { topicType: "EVENT", event: { ...event, endDate: "2026-12-06" } }
        }),
        [
          ["google_business", "changed", ["googleBusiness"]],
          ["mastodon", "unchanged", []]
        ]
      )
      yield* edit(f.agent, post.id, { content: "Workshop on Sunday" })
      assert.deepStrictEqual((yield* storedPost(f.agent, post.id)).networkOptions, {
        googleBusiness: { topicType: "EVENT", event },
        mastodon: { visibility: "unlisted" }
      })
      const refused = yield* Effect.flip(edit(f.agent, post.id, { googleBusiness: { topicType: "OFFER" } }))
      assert.strictEqual(refused.code, "validation_failed")
      assert.deepStrictEqual((refused.details as { fields: ReadonlyArray<string> }).fields, ["googleBusiness.event"])
    }).pipe(Effect.provide(pipelineLayer()))
  )
})
