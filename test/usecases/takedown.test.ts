import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { approvePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { takeDownPost, takeDownTarget } from "../../application/usecases/posts/takedown.ts"
import { runJob } from "../../application/usecases/publishing/job.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import * as PublishingSteps from "../../application/usecases/publishing/steps.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"
import { pipelineLayer, setUp, storedPost, testOptions } from "../scheduler/support.ts"

const create = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post
  })

/** Runs due work until nothing is left (publishing, first comments, take-downs). */
const drain = Effect.gen(function* () {
  for (let i = 0; i < 20; i++) {
    yield* TestClock.adjust("30 seconds")
    yield* publishDueTargets(testOptions, 50)
  }
})

const deletionOf = (actor: Actor, postId: string, accountId: string) =>
  Effect.map(storedPost(actor, postId), (p) => p.targets.find((t) => t.accountId === accountId)!.deletion ?? null)

const typesOf = (actor: Actor, postId: string) =>
  Effect.map(listEvents(actor, { postId }), (f) => (f.events as ReadonlyArray<{ type: string }>).map((e) => e.type))

describe("taking a published post down (DELETE /posts/{id}/targets/{accountId})", () => {
  it.effect(
    "removes the post, its thread and its first comment from the network, newest first; asking again is harmless",
    () =>
      Effect.gen(function* () {
        const f = yield* setUp(1)
        const [a] = f.accountIds as [string]
        const post = yield* create(f.agent, {
          accountIds: [a],
          content: "root",
          thread: ["r1", "r2"],
          firstComment: "c"
        })
        yield* drain
        const network = yield* ScriptedNetwork
        const live = network.published().map((p) => [p.externalId, p.content] as const)
        assert.strictEqual(live.length, 4)
        const asked = yield* takeDownTarget(f.agent, post.id, a)
        assert.strictEqual(asked.post.targets[0]!.deletion?.status, "deleting")
        // Nothing is "deleted" before the network said so.
        assert.deepStrictEqual(network.removed(), [])
        yield* drain
        const byContent = new Map(live.map(([id, content]) => [content, id]))
        assert.deepStrictEqual(
          network.removed(),
          ["c", "r2", "r1", "root"].map((c) => byContent.get(c)!)
        )
        assert.deepStrictEqual(network.published(), [])
        const done = yield* deletionOf(f.agent, post.id, a)
        assert.strictEqual(done?.status, "deleted")
        assert.ok(done?.deletedAt !== null)
        assert.ok((yield* typesOf(f.agent, post.id)).includes("target.deleted"))
        // Again: answered with the post as it is, nothing sent.
        const calls = network.calls().length
        const again = yield* takeDownTarget(f.agent, post.id, a)
        assert.strictEqual(again.post.targets[0]!.deletion?.status, "deleted")
        yield* drain
        assert.strictEqual(network.calls().length, calls)
      }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a key removes only its own posts; a target not yet out or not in the post is refused", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const persons = yield* create(f.person, { accountIds: [a], content: "the owner's" })
      const later = yield* create(f.agent, {
        accountIds: [a],
        content: "later",
        scheduledFor: new Date(86_400_000).toISOString()
      })
      yield* drain
      assert.strictEqual((yield* Effect.flip(takeDownTarget(f.agent, persons.id, a))).code, "takedown_not_own_post")
      assert.strictEqual((yield* Effect.flip(takeDownTarget(f.agent, later.id, a))).code, "target_not_published")
      assert.strictEqual(
        (yield* Effect.flip(takeDownTarget(f.person, persons.id, "acc_nope"))).code,
        "target_not_found"
      )
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("Instagram and TikTok answer unpublish_unsupported naming the network", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const post = yield* create(f.person, { accountIds: [a], content: "out" })
      yield* drain
      // The target's network is swapped for one whose publisher has no unpublish (as Instagram's and TikTok's).
      const stored = yield* storedPost(f.person, post.id)
      yield* (yield* PostRepo).update({
        ...stored,
        targets: stored.targets.map((t) => ({ ...t, platform: "tiktok" as const }))
      })
      const refused = yield* Effect.flip(takeDownPost(f.person, post.id))
      assert.strictEqual(refused.code, "unpublish_unsupported")
      assert.deepStrictEqual(refused.details?.platforms, ["tiktok"])
      assert.match(refused.detail ?? "", /TikTok/)
    }).pipe(Effect.provide(pipelineLayer(["sandbox"])))
  )

  it.effect("an asks-first key's take-down waits for a person; the person's own request confirms it", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const post = yield* create(f.asksFirst, { accountIds: [a], content: "needs approval" })
      yield* approvePost(f.person, post.id)
      yield* drain
      const network = yield* ScriptedNetwork
      const asked = yield* takeDownPost(f.asksFirst, post.id)
      assert.strictEqual(asked.post.targets[0]!.deletion?.status, "awaiting_approval")
      yield* drain
      assert.deepStrictEqual(network.removed(), [])
      // The key asking again changes nothing; the person's request sends it.
      yield* takeDownTarget(f.asksFirst, post.id, a)
      assert.strictEqual((yield* deletionOf(f.person, post.id, a))?.status, "awaiting_approval")
      yield* takeDownTarget(f.person, post.id, a)
      yield* drain
      assert.strictEqual(network.removed().length, 1)
      assert.strictEqual((yield* deletionOf(f.person, post.id, a))?.status, "deleted")
      const types = yield* typesOf(f.person, post.id)
      assert.ok(types.indexOf("target.deletion_requested") < types.indexOf("target.deleted"))
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a network's refusal is recorded as failed, never deleted; 429 waits, 401 renews or reconnects", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const post = yield* create(f.agent, { accountIds: [a], content: "stays up" })
      yield* drain
      const network = yield* ScriptedNetwork
      network.scriptUnpublish(Behaviour.rateLimited(60_000), Behaviour.fail("upstream_rejected", false))
      yield* takeDownTarget(f.agent, post.id, a)
      yield* publishDueTargets(testOptions, 10)
      // Throttled: still deleting, waiting for the window.
      assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleting")
      yield* drain
      const failed = yield* deletionOf(f.agent, post.id, a)
      assert.strictEqual(failed?.status, "failed")
      assert.strictEqual(failed?.error?.code, "upstream_rejected")
      assert.strictEqual(network.published().length, 1)
      assert.ok((yield* typesOf(f.agent, post.id)).includes("target.deletion_failed"))
      // Asking again after a failure tries again.
      yield* takeDownTarget(f.agent, post.id, a)
      yield* drain
      assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleted")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect(
    "crash after the network removed the post: the target stays deleting until a new attempt hears it is gone",
    () =>
      Effect.gen(function* () {
        const f = yield* setUp(1)
        const [a] = f.accountIds as [string]
        const post = yield* create(f.agent, { accountIds: [a], content: "going" })
        yield* drain
        const network = yield* ScriptedNetwork
        const externalId = network.published()[0]!.externalId
        network.scriptUnpublish(Behaviour.crash)
        yield* takeDownTarget(f.agent, post.id, a)
        yield* TestClock.adjust("1 second")
        yield* publishDueTargets(testOptions, 10)
        // The network removed it but the worker died before recording: not "deleted" yet.
        assert.deepStrictEqual(network.removed(), [externalId])
        assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleting")
        yield* drain
        // The next attempt asked again; the network had nothing more to remove: one removal, now recorded.
        assert.deepStrictEqual(network.removed(), [externalId])
        assert.strictEqual(network.calls().filter((c) => c.kind === "unpublish").length, 2)
        assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleted")
      }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect(
    "stopped during the network call (it never answered): still deleting, and the next attempt finishes it",
    () =>
      Effect.gen(function* () {
        const f = yield* setUp(1)
        const [a] = f.accountIds as [string]
        const post = yield* create(f.agent, { accountIds: [a], content: "going" })
        yield* drain
        const network = yield* ScriptedNetwork
        network.scriptUnpublish(Behaviour.hang)
        yield* takeDownTarget(f.agent, post.id, a)
        const queue = yield* JobQueue
        const leased = yield* queue.lease(yield* Clock.currentTimeMillis, 10, testOptions.leaseMs)
        assert.deepStrictEqual(
          leased.map((j) => j.kind),
          ["takedown"]
        )
        const steps = yield* PublishingSteps.make
        const worker = yield* Effect.forkChild(
          runJob(leased[0]!, testOptions).pipe(Effect.provideService(PublishingSteps.PublishingSteps, steps))
        )
        yield* TestClock.adjust("1 second")
        // The worker stops mid-call: the job goes back to the queue, the target is not called deleted.
        yield* Fiber.interrupt(worker)
        assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleting")
        assert.deepStrictEqual(network.removed(), [])
        yield* drain
        assert.strictEqual(network.removed().length, 1)
        assert.strictEqual((yield* deletionOf(f.agent, post.id, a))?.status, "deleted")
      }).pipe(Effect.provide(pipelineLayer()))
  )
})
