import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { ScheduleRepo } from "../../application/ports/ScheduleRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import type { QueueEntry, Schedule } from "../../domain/schedule.ts"
import { account, layerOptions, newId, post, seedWorkspace, type SuiteOptions, sorted, T0 } from "./fixtures.ts"

const HOUR = 60 * 60 * 1000

const schedule = (workspaceId: string, over: Partial<Schedule> = {}): Schedule => ({
  id: newId("sch"),
  workspaceId,
  name: "Weekdays",
  accountIds: ["acc_1"],
  timeZone: "Europe/Berlin",
  slots: [
    { day: "mon", time: "09:00" },
    { day: "fri", time: "17:30" }
  ],
  pausedAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...over
})

/** A post due at `at` on these accounts, stored, and its queue entries placed. */
const queuedPost = (workspaceId: string, scheduleId: string, accountIds: ReadonlyArray<string>, at: number) =>
  Effect.gen(function* () {
    const p = post(workspaceId, { scheduledFor: at })
    yield* (yield* PostRepo).insert(p)
    const entries: Array<QueueEntry> = accountIds.map((accountId) => ({
      workspaceId,
      scheduleId,
      postId: p.id,
      accountId,
      slotAt: at
    }))
    yield* (yield* ScheduleRepo).place(entries)
    return p
  })

export const scheduleRepoContract = (
  name: string,
  ports: Layer.Layer<ScheduleRepo | PostRepo | AccountRepo | Store | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`ScheduleRepo contract (${name})`, (it) => {
    it.effect("stores schedules per workspace; replace keeps, changes and deletes", () =>
      Effect.gen(function* () {
        const repo = yield* ScheduleRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const a = schedule(ws.id, { createdAt: T0 })
        const b = schedule(ws.id, { createdAt: T0 + 1, accountIds: ["acc_2", "acc_3"], pausedAt: T0 + 5 })
        yield* repo.replace(ws.id, [a, b])
        yield* repo.replace(other.id, [schedule(other.id)])
        assert.deepStrictEqual(yield* repo.list(ws.id), [a, b])
        const changed = {
          ...a,
          slots: [{ day: "sun" as const, time: "23:45" }],
          timeZone: "Asia/Kolkata",
          updatedAt: T0 + 9
        }
        yield* repo.replace(ws.id, [changed])
        assert.deepStrictEqual(yield* repo.list(ws.id), [changed])
        assert.strictEqual((yield* repo.list(other.id)).length, 1)
        const resumed = { ...changed, pausedAt: T0 + 10 }
        yield* repo.update(resumed)
        assert.deepStrictEqual(yield* repo.list(ws.id), [resumed])
      })
    )

    it.effect("accounts' own time zones: set, change, clear", () =>
      Effect.gen(function* () {
        const repo = yield* ScheduleRepo
        const ws = yield* seedWorkspace()
        const accounts = yield* AccountRepo
        const one = yield* accounts.upsert(account(ws.id))
        const two = yield* accounts.upsert(account(ws.id))
        yield* repo.setAccountZones(ws.id, [
          { accountId: one.id, timeZone: "America/New_York" },
          { accountId: two.id, timeZone: "Pacific/Chatham" }
        ])
        yield* repo.setAccountZones(ws.id, [{ accountId: one.id, timeZone: "Australia/Lord_Howe" }])
        yield* repo.setAccountZones(ws.id, [{ accountId: two.id, timeZone: null }])
        assert.deepStrictEqual(yield* repo.accountZones(ws.id), [
          { accountId: one.id, timeZone: "Australia/Lord_Howe" }
        ])
      })
    )

    it.effect("an entry is live while its post stands at its slot", () =>
      Effect.gen(function* () {
        const repo = yield* ScheduleRepo
        const posts = yield* PostRepo
        const ws = yield* seedWorkspace()
        const s = schedule(ws.id, { accountIds: ["acc_a", "acc_b"] })
        yield* repo.replace(ws.id, [s])
        const first = yield* queuedPost(ws.id, s.id, ["acc_a", "acc_b"], T0 + HOUR)
        const second = yield* queuedPost(ws.id, s.id, ["acc_a"], T0 + 2 * HOUR)
        const third = yield* queuedPost(ws.id, s.id, ["acc_b"], T0 + 3 * HOUR)
        assert.deepStrictEqual(
          (yield* repo.entries(ws.id, ["acc_a"], T0)).map((e) => [e.postId, e.slotAt]),
          [
            [first.id, T0 + HOUR],
            [second.id, T0 + 2 * HOUR]
          ]
        )
        assert.deepStrictEqual(
          (yield* repo.entries(ws.id, ["acc_a", "acc_b"], T0 + 2 * HOUR)).map((e) => e.postId),
          [second.id, third.id]
        )
        // Cancelled: gone. Rescheduled off its slot: gone. Neither needed a write here.
        yield* posts.update({ ...second, deletedAt: T0, deletedReason: "cancelled" })
        yield* posts.update({ ...third, scheduledFor: T0 + 30 * HOUR })
        assert.deepStrictEqual(
          (yield* repo.entries(ws.id, ["acc_a", "acc_b"], T0)).map((e) => `${e.postId}:${e.accountId}`),
          [`${first.id}:acc_a`, `${first.id}:acc_b`]
        )
        // The freed slot can be taken by another post.
        const fourth = yield* queuedPost(ws.id, s.id, ["acc_a"], T0 + 2 * HOUR)
        assert.deepStrictEqual(
          (yield* repo.scheduleEntries(ws.id, s.id, T0, 10)).map((e) => e.postId),
          [first.id, first.id, fourth.id]
        )
        assert.deepStrictEqual(
          (yield* repo.scheduleEntries(ws.id, s.id, T0, 2)).map((e) => e.accountId),
          ["acc_a", "acc_b"]
        )
        // Another workspace sees none of it.
        const other = yield* seedWorkspace()
        assert.deepStrictEqual(yield* repo.entries(other.id, ["acc_a", "acc_b"], T0), [])
      })
    )

    it.effect("placing a post again moves it; releasing takes it out; a deleted schedule takes its entries", () =>
      Effect.gen(function* () {
        const repo = yield* ScheduleRepo
        const posts = yield* PostRepo
        const ws = yield* seedWorkspace()
        const s = schedule(ws.id, { accountIds: ["acc_m"] })
        const t = schedule(ws.id, { accountIds: ["acc_n"] })
        yield* repo.replace(ws.id, [s, t])
        const moved = yield* queuedPost(ws.id, s.id, ["acc_m"], T0 + HOUR)
        yield* posts.update({ ...moved, scheduledFor: T0 + 5 * HOUR })
        yield* repo.place([
          { workspaceId: ws.id, scheduleId: s.id, postId: moved.id, accountId: "acc_m", slotAt: T0 + 5 * HOUR }
        ])
        assert.deepStrictEqual(
          (yield* repo.entries(ws.id, ["acc_m"], T0)).map((e) => e.slotAt),
          [T0 + 5 * HOUR]
        )
        yield* repo.release(ws.id, [moved.id])
        assert.deepStrictEqual(yield* repo.entries(ws.id, ["acc_m"], T0), [])
        yield* queuedPost(ws.id, t.id, ["acc_n"], T0 + HOUR)
        yield* repo.replace(ws.id, [s])
        assert.deepStrictEqual(yield* repo.entries(ws.id, ["acc_n"], T0), [])
      })
    )

    it.effect("the queue lock makes concurrent placements take distinct slots", () =>
      Effect.gen(function* () {
        const repo = yield* ScheduleRepo
        const store = yield* Store
        const ws = yield* seedWorkspace()
        const s = schedule(ws.id, { accountIds: ["acc_q"] })
        yield* repo.replace(ws.id, [s])
        // Each takes the first hour not held, reading then writing: only the lock keeps two from one hour.
        const takeNext = store.transaction(
          Effect.gen(function* () {
            yield* repo.lockQueue(ws.id)
            const held = new Set((yield* repo.entries(ws.id, ["acc_q"], T0)).map((e) => e.slotAt))
            let at = T0 + HOUR
            while (held.has(at)) at += HOUR
            yield* Effect.yieldNow
            yield* queuedPost(ws.id, s.id, ["acc_q"], at)
            return at
          })
        )
        const taken = yield* Effect.all(
          Array.from({ length: 8 }, () => takeNext),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(
          sorted(taken.map(String)),
          sorted(Array.from({ length: 8 }, (_, i) => String(T0 + (i + 1) * HOUR)))
        )
      })
    )
  })
