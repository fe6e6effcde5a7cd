import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { approvePost, cancelPost, reschedulePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { startWorker } from "../../application/usecases/publishing/worker.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { at, pipelineLayer, setUp, storedPost, testOptions } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE

const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(pipelineLayer()))

/** Creates a post and returns its id (the create must not be a dry run or a replay). */
const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

const statusOf = (actor: Actor, id: string) => Effect.map(getPost(actor, id), (r) => r.post.status)

describe("publishing pipeline (in memory, TestClock)", () => {
  it.effect("a scheduled post fires at its time, not before, and records the network's id", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "On the hour", scheduledFor: at(HOUR) })
        yield* TestClock.adjust(HOUR - 1)
        assert.strictEqual(net.published().length, 0)
        assert.strictEqual(yield* statusOf(f.agent, id), "scheduled")
        yield* TestClock.adjust(1)
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual(net.published()[0].at, HOUR)
        const view = (yield* getPost(f.agent, id)).post
        assert.strictEqual(view.status, "published")
        assert.strictEqual(view.targets[0].status, "published")
        assert.strictEqual(view.targets[0].externalId, net.published()[0].externalId)
        assert.strictEqual(view.targets[0].publishedAt, at(HOUR))
        assert.strictEqual(view.publishedAt, at(HOUR))
        assert.strictEqual((yield* (yield* JobQueue).pending()).length, 0)
      })
    )
  )

  it.effect("a post for now goes out on the next poll", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp(2)
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Now" })
        assert.strictEqual(yield* statusOf(f.agent, id), "publishing")
        yield* TestClock.adjust(testOptions.pollMs)
        assert.strictEqual(net.published().length, 2)
        const stored = yield* storedPost(f.agent, id)
        assert.strictEqual(stored.status, "published")
        assert.deepStrictEqual(
          stored.targets.map((t) => t.status),
          ["published", "published"]
        )
        assert.deepStrictEqual(
          stored.targets.map((t) => t.attempts),
          [1, 1]
        )
      })
    )
  )

  it.effect("a cancelled post never publishes", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Never", scheduledFor: at(HOUR) })
        yield* TestClock.adjust(30 * MINUTE)
        yield* cancelPost(f.agent, id)
        yield* TestClock.adjust(2 * HOUR)
        assert.strictEqual(net.calls().length, 0)
        assert.strictEqual((yield* (yield* JobQueue).pending()).length, 0)
        assert.strictEqual((yield* storedPost(f.agent, id)).deletedReason, "cancelled")
      })
    )
  )

  it.effect("a rescheduled post fires at its new time only", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Later", scheduledFor: at(HOUR) })
        yield* reschedulePost(f.agent, id, { scheduledFor: at(3 * HOUR) })
        yield* TestClock.adjust(3 * HOUR - 1)
        assert.strictEqual(net.published().length, 0)
        yield* TestClock.adjust(1)
        assert.strictEqual(net.published()[0].at, 3 * HOUR)
      })
    )
  )

  it.effect("approval enqueues at the due time; an overdue approval publishes at once", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const due = yield* post(f.asksFirst, {
          accountIds: f.accountIds,
          content: "Approved ahead",
          scheduledFor: at(HOUR)
        })
        const overdue = yield* post(f.asksFirst, {
          accountIds: f.accountIds,
          content: "Approved late",
          scheduledFor: at(30 * MINUTE)
        })
        assert.strictEqual(yield* statusOf(f.person, due), "needs_approval")
        yield* TestClock.adjust(45 * MINUTE)
        assert.strictEqual(net.published().length, 0, "nothing waits for approval in the queue")
        yield* approvePost(f.person, due)
        yield* approvePost(f.person, overdue)
        assert.strictEqual(yield* statusOf(f.person, due), "scheduled")
        yield* TestClock.adjust(testOptions.pollMs)
        assert.deepStrictEqual(
          net.published().map((r) => r.content),
          ["Approved late"]
        )
        yield* TestClock.adjust(HOUR - 45 * MINUTE - testOptions.pollMs)
        assert.deepStrictEqual(
          net.published().map((r) => [r.content, r.at]),
          [
            ["Approved late", 45 * MINUTE + testOptions.pollMs],
            ["Approved ahead", HOUR]
          ]
        )
      })
    )
  )

  it.effect("a thread goes out as replies in order, each chained to the previous one", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "1/3", thread: ["2/3", "3/3"] })
        yield* TestClock.adjust(testOptions.pollMs)
        const [root, second, third] = net.published()
        assert.deepStrictEqual(
          net.published().map((r) => r.content),
          ["1/3", "2/3", "3/3"]
        )
        assert.isNull(root.replyTo)
        assert.deepStrictEqual(second.replyTo, { rootId: root.externalId, parentId: root.externalId })
        assert.deepStrictEqual(third.replyTo, { rootId: root.externalId, parentId: second.externalId })
        const target = (yield* getPost(f.agent, id)).post.targets[0]
        assert.strictEqual(target.externalId, root.externalId)
        assert.deepStrictEqual(
          target.thread.map((r) => [r.index, r.externalId]),
          [
            [0, second.externalId],
            [1, third.externalId]
          ]
        )
      })
    )
  )

  it.effect("a failed thread reply resumes after the replies already out when a person retries", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        net.script("3/3", Behaviour.fail("upstream_rejected", false))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "1/3", thread: ["2/3", "3/3"] })
        yield* TestClock.adjust(testOptions.pollMs)
        const failed = (yield* getPost(f.agent, id)).post
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.targets[0].error?.code, "upstream_rejected")
        assert.strictEqual(failed.targets[0].thread.length, 1)
        const { retryPost } = yield* Effect.promise(() => import("../../application/usecases/posts/actions.ts"))
        yield* retryPost(f.person, id)
        yield* TestClock.adjust(testOptions.pollMs)
        assert.deepStrictEqual(
          net.published().map((r) => r.content),
          ["1/3", "2/3", "3/3"]
        )
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("the first comment goes out 10 s after the post, as a reply, with its own status", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Main", firstComment: "Link in here" })
        yield* TestClock.adjust(testOptions.pollMs)
        const live = (yield* getPost(f.agent, id)).post
        assert.strictEqual(live.status, "published")
        assert.strictEqual(live.targets[0].firstComment?.status, "pending")
        yield* TestClock.setTime(net.published()[0].at + 10_000 - 1)
        assert.strictEqual(net.published().length, 1)
        yield* TestClock.adjust(1)
        const [root, comment] = net.published()
        assert.strictEqual(comment.content, "Link in here")
        assert.strictEqual(comment.at - root.at, 10_000)
        assert.deepStrictEqual(comment.replyTo, { rootId: root.externalId, parentId: root.externalId })
        assert.deepStrictEqual((yield* getPost(f.agent, id)).post.targets[0].firstComment, {
          status: "published",
          externalId: comment.externalId,
          error: null
        })
      })
    )
  )

  it.effect("a failed first comment leaves the post published and can be retried by a person", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        net.script("Comment", Behaviour.fail("upstream_rejected", false))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Main", firstComment: "Comment" })
        yield* TestClock.adjust(testOptions.pollMs + 10_000)
        const view = (yield* getPost(f.agent, id)).post
        assert.strictEqual(view.status, "published")
        assert.strictEqual(view.targets[0].firstComment?.status, "failed")
        assert.strictEqual(view.targets[0].firstComment?.error?.code, "upstream_rejected")
        const { retryFirstComment } = yield* Effect.promise(() => import("../../application/usecases/posts/actions.ts"))
        yield* retryFirstComment(f.person, id, null)
        yield* TestClock.adjust(testOptions.pollMs)
        assert.strictEqual((yield* getPost(f.agent, id)).post.targets[0].firstComment?.status, "published")
        assert.strictEqual(net.published().length, 2)
      })
    )
  )

  it.effect("the poll, the cover and the TikTok AI label reach the publisher", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        yield* startWorker(testOptions)
        const poll = { options: ["Yes", "No"], durationMinutes: 60 }
        yield* post(f.agent, { accountIds: f.accountIds, content: "Vote", poll })
        yield* TestClock.adjust(testOptions.pollMs)
        const request = net.published()[0].request
        assert.deepStrictEqual(
          [request.poll?.options, request.poll?.durationMinutes],
          [poll.options, poll.durationMinutes]
        )
        assert.isFalse(request.tiktokAiGenerated)
      })
    )
  )
})
