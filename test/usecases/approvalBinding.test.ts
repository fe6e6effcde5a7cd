import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { reorderQueue } from "../../application/usecases/planning/queue.ts"
import { putSchedules } from "../../application/usecases/planning/schedules.ts"
import { approvePost, reschedulePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"
import { pipelineLayer, setUp, testOptions } from "../scheduler/support.ts"

const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()

const create = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

const statusOf = (actor: Actor, id: string) => Effect.map(getPost(actor, id), (r) => r.post.status)
const jobsOf = (id: string) =>
  Effect.map(
    Effect.flatMap(JobQueue, (q) => q.pending()),
    (jobs) => jobs.filter((j) => j.postId === id)
  )
const typesOf = (actor: Actor, id: string) =>
  Effect.map(listEvents(actor, { postId: id, limit: "100" }), (r) => r.events.map((e) => (e as { type: string }).type))

describe("an approval binds the post's time too", () => {
  it.effect("a key moving an approved post sends it back to needs_approval: it does not go out at the new time", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-01-04T12:00:00Z"))
      const f = yield* setUp(1)
      const start = Date.parse("2027-01-04T12:00:00Z")
      const id = yield* create(f.asksFirst, {
        accountIds: f.accountIds,
        content: "next month",
        scheduledFor: iso(start + 30 * DAY)
      })
      yield* approvePost(f.person, id)
      assert.strictEqual(yield* statusOf(f.asksFirst, id), "scheduled")
      const moved = yield* reschedulePost(f.asksFirst, id, { scheduledFor: iso(start + 2 * 60_000) })
      assert.strictEqual(moved.post.status, "needs_approval")
      assert.deepStrictEqual(
        moved.post.targets.map((t) => t.status),
        ["needs_approval"]
      )
      assert.deepStrictEqual(yield* jobsOf(id), [])
      const types = yield* typesOf(f.asksFirst, id)
      assert.deepStrictEqual(types.slice(-3), ["post.approved", "post.rescheduled", "post.needs_approval"])
      yield* TestClock.adjust("10 minutes")
      yield* publishDueTargets(testOptions, 50)
      assert.deepStrictEqual((yield* ScriptedNetwork).published(), [])
      assert.strictEqual(yield* statusOf(f.asksFirst, id), "needs_approval")
      // Approved again, at the new time, it goes out.
      yield* approvePost(f.person, id)
      yield* publishDueTargets(testOptions, 50)
      assert.deepStrictEqual(
        (yield* ScriptedNetwork).published().map((r) => r.content),
        ["next month"]
      )
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a person moving an approved post keeps it approved; a key moving a waiting post leaves it waiting", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-01-04T12:00:00Z"))
      const f = yield* setUp(1)
      const start = Date.parse("2027-01-04T12:00:00Z")
      const id = yield* create(f.asksFirst, { accountIds: f.accountIds, content: "a", scheduledFor: iso(start + DAY) })
      yield* approvePost(f.person, id)
      const byPerson = yield* reschedulePost(f.person, id, { scheduledFor: iso(start + 2 * DAY) })
      assert.strictEqual(byPerson.post.status, "scheduled")
      assert.deepStrictEqual(
        (yield* jobsOf(id)).map((j) => j.runAt),
        [start + 2 * DAY]
      )
      const waiting = yield* create(f.asksFirst, {
        accountIds: f.accountIds,
        content: "b",
        scheduledFor: iso(start + DAY)
      })
      const again = yield* reschedulePost(f.asksFirst, waiting, { scheduledFor: iso(start + 3 * DAY) })
      assert.strictEqual(again.post.status, "needs_approval")
      assert.deepStrictEqual(yield* typesOf(f.asksFirst, waiting), [
        "post.created",
        "post.needs_approval",
        "post.rescheduled"
      ])
      // A key's own post that never asked for approval is the key's to move.
      const plain = yield* create(f.agent, { accountIds: f.accountIds, content: "c", scheduledFor: iso(start + DAY) })
      const movedPlain = yield* reschedulePost(f.agent, plain, { scheduledFor: iso(start + 2 * DAY) })
      assert.strictEqual(movedPlain.post.status, "scheduled")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a key reordering its queue sends the approved posts it moves back for approval", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-01-04T12:00:00Z")) // a Monday
      const f = yield* setUp(1)
      const daily = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => ({ day, time: "09:00" }))
      const put = yield* putSchedules(f.person, {
        schedules: [{ accountIds: f.accountIds, slots: daily as never }]
      })
      const scheduleId = put.schedules[0]!.id
      const a = yield* create(f.agent, { accountIds: f.accountIds, content: "a", queue: true, requireApproval: true })
      const b = yield* create(f.agent, { accountIds: f.accountIds, content: "b", queue: true, requireApproval: true })
      yield* approvePost(f.person, a)
      yield* approvePost(f.person, b)
      const reordered = yield* reorderQueue(f.agent, scheduleId, [b, a])
      assert.strictEqual(reordered.moved.length, 2)
      assert.strictEqual(yield* statusOf(f.agent, a), "needs_approval")
      assert.strictEqual(yield* statusOf(f.agent, b), "needs_approval")
      assert.deepStrictEqual([...(yield* jobsOf(a)), ...(yield* jobsOf(b))], [])
      assert.include(yield* typesOf(f.agent, a), "post.needs_approval")
    }).pipe(Effect.provide(pipelineLayer()))
  )
})
