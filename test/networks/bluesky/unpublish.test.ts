import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import { connectInBrowser } from "../../support/connect.ts"
import { createPost } from "../../../application/usecases/posts/create.ts"
import { getPost } from "../../../application/usecases/posts/query.ts"
import { takeDownTarget } from "../../../application/usecases/posts/takedown.ts"
import { publishDueTargets } from "../../../application/usecases/publishing/worker.ts"
import type { Actor } from "../../../domain/apiKey.ts"
import { blueskyCore, pipelineOptions, watchedFetch, workspace } from "./host.ts"
import { type LocalPds, type PdsAccount, startPds } from "./pds.ts"

let pds: LocalPds
let alice: PdsAccount

beforeAll(async () => {
  pds = await startPds()
  alice = await pds.account("alice")
}, 120_000)
afterAll(async () => {
  await pds?.close()
})

const withBluesky = <A, E>(body: (watched: ReturnType<typeof watchedFetch>) => Effect.Effect<A, E, any>) => {
  const watched = watchedFetch()
  return body(watched).pipe(Effect.provide(blueskyCore({ serviceUrl: pds.url, fetch: watched.fetch })))
}

const connect = (person: Actor, who: PdsAccount) =>
  Effect.gen(function* () {
    return (yield* connectInBrowser(person, "bluesky", { handle: who.handle, appPassword: who.appPassword })).account.id
  })

const uris = (who: PdsAccount) =>
  Effect.promise(() =>
    who.owner.com.atproto.repo.listRecords({ repo: who.did, collection: "app.bsky.feed.post", limit: 100 })
  ).pipe(Effect.map((r) => r.data.records.map((x) => x.uri)))

/** Publishes the post with its thread and first comment, then answers its target. */
const published = (agent: Actor, accountId: string, content: string) =>
  Effect.gen(function* () {
    const created = yield* createPost(
      agent,
      { accountIds: [accountId], content, thread: [`${content} 2/2`], firstComment: `${content} comment` },
      null
    )
    if (created.kind !== "created") throw new Error("not created")
    yield* publishDueTargets(pipelineOptions, 10)
    yield* TestClock.adjust(pipelineOptions.firstCommentDelayMs)
    yield* publishDueTargets(pipelineOptions, 10)
    const target = (yield* getPost(agent, created.body.post.id)).post.targets[0]!
    assert.strictEqual(target.firstComment?.status, "published")
    return { id: created.body.post.id, target }
  })

describe("Bluesky take-down on a local PDS (com.atproto.repo.deleteRecord)", () => {
  it.effect(
    "removes the post, its reply and its first comment from the repository; deleted only after the PDS said so",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const { id, target } = yield* published(agent, accountId, "Bluesky going")
          const mine = [target.externalId!, target.thread[0]!.externalId, target.firstComment!.externalId!]
          assert.includeMembers(yield* uris(alice), mine)
          yield* takeDownTarget(agent, id, accountId)
          yield* publishDueTargets(pipelineOptions, 10)
          assert.strictEqual(watched.count("com.atproto.repo.deleteRecord"), 3)
          const left = yield* uris(alice)
          for (const uri of mine) assert.notInclude(left, uri)
          const after = (yield* getPost(agent, id)).post.targets[0]!
          assert.strictEqual(after.deletion?.status, "deleted")
        })
      )
  )

  it.effect(
    "an answer lost after the PDS deleted: still deleting, and the next try's delete of a gone record succeeds",
    () =>
      withBluesky((watched) =>
        Effect.gen(function* () {
          const { person, agent } = yield* workspace
          const accountId = yield* connect(person, alice)
          const { id, target } = yield* published(agent, accountId, "Bluesky lost")
          // The first delete (the comment's) reaches the PDS; its answer never comes back.
          const delivered = watched.loseAnswer("com.atproto.repo.deleteRecord")
          yield* takeDownTarget(agent, id, accountId)
          const first = yield* Effect.forkChild(publishDueTargets(pipelineOptions, 10))
          yield* Effect.promise(() => delivered)
          yield* TestClock.adjust(pipelineOptions.publishTimeoutMs)
          yield* Fiber.join(first)
          assert.notInclude(yield* uris(alice), target.firstComment!.externalId!)
          assert.strictEqual((yield* getPost(agent, id)).post.targets[0]!.deletion?.status, "deleting")
          yield* TestClock.adjust(pipelineOptions.backoffMs(1))
          yield* publishDueTargets(pipelineOptions, 10)
          assert.strictEqual((yield* getPost(agent, id)).post.targets[0]!.deletion?.status, "deleted")
          assert.notInclude(yield* uris(alice), target.externalId!)
        })
      )
  )
})
