import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { approvePost, cancelPost, reschedulePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { listQueue, reorderQueue } from "../../application/usecases/planning/queue.ts"
import { getSchedules, putSchedules, setQueuePaused } from "../../application/usecases/planning/schedules.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { updateWorkspaceSettings } from "../../application/usecases/workspaceSettings.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"
import type { WeeklySlot } from "../../domain/schedule.ts"
import { pipelineLayer, setUp, storedPost, testOptions } from "../scheduler/support.ts"

const every = (days: ReadonlyArray<WeeklySlot["day"]>, time: string) => days.map((day) => ({ day, time }))
const daily = (time: string) => every(["mon", "tue", "wed", "thu", "fri", "sat", "sun"], time)

/** Creates a post that must be stored; answers its id and `planned`. */
const create = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    const planned = (r.body as { planned?: { scheduledFor: string; local: string; utcOffset: string } }).planned
    return { id: r.body.post.id, status: r.body.post.status, scheduledFor: r.body.post.scheduledFor, planned }
  })

const queued = (actor: Actor, accountIds: ReadonlyArray<string>, content: string) =>
  create(actor, { accountIds, content, queue: true })

/** Pending publish jobs' due times by post. */
const jobTimes = Effect.map(
  Effect.flatMap(JobQueue, (q) => q.pending()),
  (jobs) => {
    const times = new Map<string, Array<string>>()
    for (const j of jobs) times.set(j.postId, [...(times.get(j.postId) ?? []), new Date(j.runAt).toISOString()])
    return times
  }
)

describe("posting queues on the in-memory host", () => {
  it.effect(
    "queued posts take the next free slots in the schedule's zone, across a DST change, shown in UTC and local",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-03-22T12:00:00Z")) // a Monday, after 09:00 Berlin
        const f = yield* setUp(1)
        const [a] = f.accountIds as [string]
        yield* updateWorkspaceSettings(f.person, { timeZone: "Europe/Berlin" })
        const put = yield* putSchedules(f.person, {
          schedules: [{ accountIds: [a], slots: every(["mon", "wed", "fri"], "09:00") }]
        })
        assert.strictEqual(put.schedules[0]!.timeZone, "Europe/Berlin")
        const posts = []
        for (let i = 0; i < 3; i++) posts.push(yield* queued(f.agent, [a], `queued ${i}`))
        // Wed 24 and Fri 26 in CET (+01:00); Mon 29 after the change to CEST (+02:00): 09:00 each time.
        assert.deepStrictEqual(
          posts.map((p) => [p.scheduledFor, p.planned?.local, p.planned?.utcOffset]),
          [
            ["2027-03-24T08:00:00.000Z", "2027-03-24T09:00:00", "+01:00"],
            ["2027-03-26T08:00:00.000Z", "2027-03-26T09:00:00", "+01:00"],
            ["2027-03-29T07:00:00.000Z", "2027-03-29T09:00:00", "+02:00"]
          ]
        )
        assert.deepStrictEqual(
          posts.map((p) => p.status),
          ["scheduled", "scheduled", "scheduled"]
        )
        // Resolved at create time: the jobs are due at the slots, nothing recomputes them later.
        const jobs = yield* jobTimes
        assert.deepStrictEqual(
          posts.map((p) => jobs.get(p.id)),
          posts.map((p) => [p.scheduledFor!])
        )
        const queue = yield* listQueue(f.agent, put.schedules[0]!.id, {})
        assert.deepStrictEqual(
          queue.posts.map((q) => q.postId),
          posts.map((p) => p.id)
        )
      }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect(
    "a daily 02:30 slot through both DST nights: one post a day, never twice, never skipped, each published once",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-03-26T12:00:00Z"))
        const f = yield* setUp(1)
        const [a] = f.accountIds as [string]
        yield* putSchedules(f.person, {
          schedules: [{ accountIds: [a], timeZone: "Europe/Berlin", slots: daily("02:30") }]
        })
        const spring = []
        for (let i = 0; i < 4; i++) spring.push(yield* queued(f.agent, [a], `spring ${i}`))
        // 27 March CET, 28 March (02:30 does not exist: 03:30 CEST, just past the gap), 29 and 30 CEST.
        assert.deepStrictEqual(
          spring.map((p) => [p.scheduledFor, p.planned?.local]),
          [
            ["2027-03-27T01:30:00.000Z", "2027-03-27T02:30:00"],
            ["2027-03-28T01:30:00.000Z", "2027-03-28T03:30:00"],
            ["2027-03-29T00:30:00.000Z", "2027-03-29T02:30:00"],
            ["2027-03-30T00:30:00.000Z", "2027-03-30T02:30:00"]
          ]
        )
        // The scheduler goes through the nights a minute at a time: each post out once, at its slot.
        const net = yield* ScriptedNetwork
        for (let t = 0; t < 4 * 24 * 60; t += 10) {
          yield* TestClock.adjust("10 minutes")
          yield* publishDueTargets(testOptions, 50)
        }
        const out = net.published()
        assert.deepStrictEqual(
          out.map((r) => r.content),
          spring.map((_, i) => `spring ${i}`)
        )
        for (const [i, p] of spring.entries()) {
          const at = out[i]!.at
          assert.isTrue(
            at >= Date.parse(p.scheduledFor!) && at < Date.parse(p.scheduledFor!) + 11 * 60_000,
            `${i} on time`
          )
        }

        yield* TestClock.setTime(Date.parse("2027-10-29T12:00:00Z"))
        const autumn = []
        for (let i = 0; i < 3; i++) autumn.push(yield* queued(f.agent, [a], `autumn ${i}`))
        // 31 October repeats 02:00-03:00: the slot is the first 02:30 (CEST, 00:30Z), once.
        assert.deepStrictEqual(
          autumn.map((p) => [p.scheduledFor, p.planned?.utcOffset]),
          [
            ["2027-10-30T00:30:00.000Z", "+02:00"],
            ["2027-10-31T00:30:00.000Z", "+02:00"],
            ["2027-11-01T01:30:00.000Z", "+01:00"]
          ]
        )
      }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("one time for all targets: the first slot free on every one of the post's accounts", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z")) // Monday
      const f = yield* setUp(3)
      const [a, b, c] = f.accountIds as [string, string, string]
      yield* putSchedules(f.person, { schedules: [{ accountIds: [a, b], timeZone: "UTC", slots: daily("10:00") }] })
      const both = yield* queued(f.agent, [a, b], "both")
      const onlyA = yield* queued(f.agent, [a], "a")
      const onlyB = yield* queued(f.agent, [b], "b")
      const bothAgain = yield* queued(f.agent, [a, b], "both again")
      assert.deepStrictEqual(
        [both, onlyA, onlyB, bothAgain].map((p) => p.scheduledFor),
        ["2027-05-03T10:00:00.000Z", "2027-05-04T10:00:00.000Z", "2027-05-04T10:00:00.000Z", "2027-05-05T10:00:00.000Z"]
      )
      const outside = yield* Effect.flip(queued(f.agent, [a, c], "c has no queue"))
      assert.strictEqual(outside.code, "queue_not_set_up")
      assert.deepStrictEqual(outside.details?.accountIds, [c])
      const both2 = yield* Effect.flip(
        create(f.agent, { accountIds: [a], content: "x", queue: true, scheduledFor: "2027-06-01T00:00:00Z" })
      )
      assert.strictEqual(both2.code, "validation_failed")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("an asks-first key's queued post keeps its slot while it waits, and goes out there once approved", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z"))
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      yield* putSchedules(f.person, {
        schedules: [{ accountIds: [a], timeZone: "Asia/Kolkata", slots: daily("09:30") }]
      })
      const waiting = yield* queued(f.asksFirst, [a], "waits")
      const next = yield* queued(f.agent, [a], "next")
      assert.strictEqual(waiting.status, "needs_approval")
      assert.deepStrictEqual(
        [waiting.scheduledFor, next.scheduledFor],
        ["2027-05-03T04:00:00.000Z", "2027-05-04T04:00:00.000Z"]
      )
      assert.isUndefined((yield* jobTimes).get(waiting.id))
      const approved = yield* approvePost(f.person, waiting.id)
      assert.strictEqual(approved.post.status, "scheduled")
      assert.strictEqual(approved.post.scheduledFor, waiting.scheduledFor)
      assert.deepStrictEqual((yield* jobTimes).get(waiting.id), [waiting.scheduledFor])
      // An asks-first key queues and reads, but does not change queues.
      const refused = yield* Effect.flip(
        setQueuePaused(f.asksFirst, (yield* getSchedules(f.person)).schedules[0]!.id, true)
      )
      assert.strictEqual(refused.code, "approval_requires_human")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a cancelled or rescheduled post frees its slot for the next queued post", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z"))
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      yield* putSchedules(f.person, { schedules: [{ accountIds: [a], timeZone: "UTC", slots: daily("12:00") }] })
      const first = yield* queued(f.agent, [a], "first")
      const second = yield* queued(f.agent, [a], "second")
      yield* cancelPost(f.agent, first.id)
      const third = yield* queued(f.agent, [a], "third")
      assert.strictEqual(third.scheduledFor, first.scheduledFor)
      yield* reschedulePost(f.agent, second.id, { scheduledFor: "2027-07-01T08:00:00Z" })
      const fourth = yield* queued(f.agent, [a], "fourth")
      assert.strictEqual(fourth.scheduledFor, second.scheduledFor)
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect(
    "changing slots lays the queue again in its order; a removed account's posts leave the queue keeping their times",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z")) // Monday
        const f = yield* setUp(2)
        const [a, b] = f.accountIds as [string, string]
        const put = yield* putSchedules(f.person, {
          schedules: [{ accountIds: [a, b], timeZone: "America/New_York", slots: every(["mon", "thu"], "09:00") }]
        })
        const id = put.schedules[0]!.id
        const p1 = yield* queued(f.agent, [a], "p1")
        const p2 = yield* queued(f.agent, [a], "p2")
        const p3 = yield* queued(f.agent, [b], "p3")
        assert.deepStrictEqual(
          [p1, p2, p3].map((p) => p.scheduledFor),
          ["2027-05-03T13:00:00.000Z", "2027-05-06T13:00:00.000Z", "2027-05-03T13:00:00.000Z"]
        )
        // Daily at 08:00 instead: a's posts keep their order on the new slots; b leaves the schedule.
        const changed = yield* putSchedules(f.person, {
          schedules: [{ id, accountIds: [a], slots: daily("08:00") }]
        })
        assert.deepStrictEqual(
          changed.moved.map((m) => [m.postId, m.to, m.local?.local]),
          [
            [p1.id, "2027-05-03T12:00:00.000Z", "2027-05-03T08:00:00"],
            [p2.id, "2027-05-04T12:00:00.000Z", "2027-05-04T08:00:00"]
          ]
        )
        assert.deepStrictEqual(
          changed.released.map((m) => m.postId),
          [p3.id]
        )
        assert.strictEqual((yield* storedPost(f.person, p3.id)).scheduledFor, Date.parse(p3.scheduledFor!))
        const jobs = yield* jobTimes
        assert.deepStrictEqual(jobs.get(p2.id), ["2027-05-04T12:00:00.000Z"])
        const events = (yield* listEvents(f.person, { types: "post.rescheduled,schedules.updated" })).events as Array<{
          type: string
          data: { reason?: string; post?: { id: string } }
        }>
        assert.deepStrictEqual(
          events.map((e) => [e.type, e.data.reason ?? null]),
          [
            ["schedules.updated", null],
            ["post.rescheduled", "slots_changed"],
            ["post.rescheduled", "slots_changed"],
            ["schedules.updated", null]
          ]
        )
      }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a paused queue holds its posts back; resuming lays them again from now, in order", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z"))
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const put = yield* putSchedules(f.person, {
        schedules: [{ accountIds: [a], timeZone: "UTC", slots: daily("06:00") }]
      })
      const id = put.schedules[0]!.id
      const p1 = yield* queued(f.agent, [a], "p1")
      const p2 = yield* queued(f.agent, [a], "p2")
      yield* setQueuePaused(f.agent, id, true)
      assert.strictEqual((yield* jobTimes).size, 0)
      // Two days pass: nothing goes out. A post queued meanwhile joins the queue, held too.
      const net = yield* ScriptedNetwork
      yield* TestClock.adjust("2 days")
      yield* publishDueTargets(testOptions, 50)
      const p3 = yield* queued(f.agent, [a], "p3")
      assert.deepStrictEqual(net.published(), [])
      assert.strictEqual((yield* jobTimes).size, 0)
      const resumed = yield* setQueuePaused(f.agent, id, false)
      assert.isFalse(resumed.schedule.paused)
      // From 2027-05-05T00:00Z: 06:00 on the 5th, 6th, 7th, in the queue's order.
      const after = yield* Effect.forEach([p1, p2, p3], (p) => storedPost(f.person, p.id))
      assert.deepStrictEqual(
        after.map((p) => new Date(p.scheduledFor!).toISOString()),
        ["2027-05-05T06:00:00.000Z", "2027-05-06T06:00:00.000Z", "2027-05-07T06:00:00.000Z"]
      )
      assert.deepStrictEqual((yield* jobTimes).get(p3.id), ["2027-05-07T06:00:00.000Z"])
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("reordering: the posts named take the slots from the earliest they hold, in the order given", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2027-05-03T00:00:00Z"))
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const put = yield* putSchedules(f.person, {
        schedules: [{ accountIds: [a], timeZone: "UTC", slots: daily("06:00") }]
      })
      const id = put.schedules[0]!.id
      const posts = []
      for (let i = 0; i < 4; i++) posts.push(yield* queued(f.agent, [a], `p${i}`))
      const [p0, p1, p2, p3] = posts as [(typeof posts)[0], (typeof posts)[0], (typeof posts)[0], (typeof posts)[0]]
      const result = yield* reorderQueue(f.agent, id, [p3.id, p1.id, p2.id])
      const queue = yield* listQueue(f.agent, id, {})
      assert.deepStrictEqual(
        queue.posts.map((q) => q.postId),
        [p0.id, p3.id, p1.id, p2.id]
      )
      assert.deepStrictEqual(
        result.moved.map((m) => m.postId),
        [p3.id, p1.id, p2.id]
      )
      assert.deepStrictEqual((yield* jobTimes).get(p3.id), [p1.scheduledFor])
      const notQueued = yield* Effect.flip(reorderQueue(f.agent, id, ["post_01JZZZZZZZZZZZZZZZZZZZZZZZ"]))
      assert.strictEqual(notQueued.code, "post_not_found")
    }).pipe(Effect.provide(pipelineLayer()))
  )
})

describe("local times with a zone", () => {
  it.effect(
    "a local time is read in its zone; a repeated one is the first; a skipped one is refused with a suggestion",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-01-10T00:00:00Z"))
        const f = yield* setUp(2)
        const [a, b] = f.accountIds as [string, string]
        const plain = yield* create(f.agent, {
          accountIds: [a],
          content: "Berlin",
          scheduledFor: { local: "2027-03-28T09:00", timeZone: "Europe/Berlin" }
        })
        assert.strictEqual(plain.scheduledFor, "2027-03-28T07:00:00.000Z")
        assert.deepStrictEqual(plain.planned, {
          scheduledFor: "2027-03-28T07:00:00.000Z",
          local: "2027-03-28T09:00:00",
          timeZone: "Europe/Berlin",
          utcOffset: "+02:00",
          scheduleId: null
        } as never)
        const repeated = yield* create(f.agent, {
          accountIds: [a],
          content: "twice",
          scheduledFor: { local: "2027-11-07T01:30", timeZone: "America/New_York" }
        })
        assert.strictEqual(repeated.scheduledFor, "2027-11-07T05:30:00.000Z") // EDT, the first 01:30
        const skipped = yield* Effect.flip(
          create(f.agent, {
            accountIds: [a],
            content: "gap",
            scheduledFor: { local: "2027-03-28T02:30", timeZone: "Europe/Berlin" }
          })
        )
        assert.strictEqual(skipped.code, "local_time_skipped")
        assert.deepStrictEqual(skipped.details?.suggestion, {
          scheduledFor: "2027-03-28T01:30:00.000Z",
          local: "2027-03-28T03:30:00",
          timeZone: "Europe/Berlin",
          utcOffset: "+02:00"
        })
        // Without a zone: the targets' (the workspace's here, then an account's own); differing zones need one.
        yield* updateWorkspaceSettings(f.person, { timeZone: "Pacific/Chatham" })
        const workspaceZone = yield* create(f.agent, {
          accountIds: [a],
          content: "ws",
          scheduledFor: { local: "2027-06-01T12:00" }
        })
        assert.strictEqual(workspaceZone.planned?.utcOffset, "+12:45")
        yield* putSchedules(f.person, { schedules: [], accountTimeZones: { [b]: "Australia/Lord_Howe" } })
        const own = yield* create(f.agent, {
          accountIds: [b],
          content: "own",
          scheduledFor: { local: "2027-01-20T12:00" }
        })
        assert.deepStrictEqual([own.scheduledFor, own.planned?.utcOffset], ["2027-01-20T01:00:00.000Z", "+11:00"])
        const mixed = yield* Effect.flip(
          create(f.agent, { accountIds: [a, b], content: "mixed", scheduledFor: { local: "2027-06-01T12:00" } })
        )
        assert.deepStrictEqual([mixed.code, mixed.details?.fields], ["validation_failed", ["scheduledFor.timeZone"]])
        const unknownZone = yield* Effect.flip(
          create(f.agent, {
            accountIds: [a],
            content: "x",
            scheduledFor: { local: "2027-06-01T12:00", timeZone: "Mars/Olympus" }
          })
        )
        assert.strictEqual(unknownZone.code, "unknown_time_zone")
        // Reschedule takes the local form too (its zone named).
        const moved = yield* reschedulePost(f.agent, plain.id, {
          scheduledFor: { local: "2027-04-01T18:15", timeZone: "Asia/Kolkata" }
        })
        assert.strictEqual(moved.post.scheduledFor, "2027-04-01T12:45:00.000Z")
      }).pipe(Effect.provide(pipelineLayer()))
  )
})
