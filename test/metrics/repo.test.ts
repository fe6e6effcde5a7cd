import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import * as Memory from "../../adapters/memory/index.ts"
import { MetricsRepo, type MetricsTarget } from "../../application/ports/MetricsRepo.ts"
import { refreshOffsetsMs } from "../../domain/metrics.ts"
import { seedWorkspace, T0 } from "../contract/fixtures.ts"
import { testDatabase, withTestServer } from "../support/postgres.ts"
import { freshSqlStorage } from "../support/storage.ts"

const HOUR = 3_600_000
const ten = { accounts: 10, targets: 10 }

const target = (workspaceId: string, n: number, over: Partial<MetricsTarget> = {}): MetricsTarget => ({
  workspaceId,
  postId: `post_${String(n).padStart(26, "0")}`,
  accountId: "acc_1",
  platform: "x",
  externalId: `x${n}`,
  publishedAt: T0,
  ...over
})

/** The MetricsRepo contract, run on each adapter. */
const suite = (name: string, storage: () => Layer.Layer<any, any>) =>
  describe(`MetricsRepo (${name})`, () => {
    it.effect("a target is due an hour after publishing, leased once, and grouped by account", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const repo = yield* MetricsRepo
        yield* repo.schedule([target(ws.id, 1), target(ws.id, 2), target(ws.id, 3, { accountId: "acc_2" })])
        // Scheduling again keeps what is there.
        yield* repo.schedule([target(ws.id, 1, { publishedAt: T0 + 999 * HOUR })])
        assert.deepStrictEqual(yield* repo.lease(T0 + HOUR - 1, ten, 60_000), [])
        const leases = yield* repo.lease(T0 + HOUR, ten, 60_000)
        assert.deepStrictEqual(
          leases.map((l) => [l.accountId, l.targets.length]),
          [
            ["acc_1", 2],
            ["acc_2", 1]
          ]
        )
        assert.deepStrictEqual(yield* repo.lease(T0 + HOUR + 1, ten, 60_000), [])
        // Leases are named apart in a loop: by account and time of leasing.
        assert.strictEqual(new Set(leases.map((l) => l.id)).size, 2)
        // A lease that ran out (its scheduler died) is taken again.
        assert.strictEqual((yield* repo.lease(T0 + HOUR + 60_001, ten, 60_000)).length, 2)
      }).pipe(Effect.provide(storage()))
    )

    it.effect("complete stores readings, the latest and the next due time; postpone and states", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const repo = yield* MetricsRepo
        yield* repo.schedule([target(ws.id, 1), target(ws.id, 2)])
        const [lease] = yield* repo.lease(T0 + HOUR, ten, 60_000)
        const [a, b] = lease.targets
        const state = { accountId: "acc_1", state: "available" as const, reason: null, checkedAt: T0 + HOUR }
        yield* repo.complete(
          [
            { target: a, raw: { like_count: 3, impression_count: null }, stage: 1, dueAt: T0 + 24 * HOUR },
            { target: b, raw: null, stage: 1, dueAt: null }
          ],
          T0 + HOUR,
          state
        )
        const latest = yield* repo.latest(ws.id, [a.postId, b.postId])
        assert.strictEqual(latest.length, 1)
        assert.deepStrictEqual(latest[0].raw, { like_count: 3, impression_count: null })
        assert.strictEqual(latest[0].readAt, T0 + HOUR)
        assert.deepStrictEqual(yield* repo.lease(T0 + 23 * HOUR, ten, 60_000), [])
        const [next] = yield* repo.lease(T0 + 24 * HOUR, ten, 60_000)
        assert.strictEqual(next.targets.length, 1)
        assert.strictEqual(next.targets[0].stage, 1)
        yield* repo.postpone(next.targets, T0 + 200 * HOUR, { ...state, state: "unavailable", reason: "tier" })
        assert.deepStrictEqual(yield* repo.lease(T0 + 199 * HOUR, ten, 60_000), [])
        const [states] = yield* repo.accountStates(ws.id, ["acc_1"]).pipe(Effect.map((s) => [s]))
        assert.strictEqual(states[0].state, "unavailable")
        assert.strictEqual(states[0].reason, "tier")
        yield* repo.complete(
          [{ target: next.targets[0], raw: { like_count: 5 }, stage: 2, dueAt: null }],
          T0 + 201 * HOUR,
          { ...state, checkedAt: T0 + 201 * HOUR }
        )
        assert.deepStrictEqual(
          (yield* repo.history(ws.id, a.postId)).map((r) => r.raw.like_count),
          [3, 5]
        )
        const sums = yield* repo.published(ws.id, { from: T0, to: T0 + 1, platform: "x" })
        assert.strictEqual(sums.length, 1)
        assert.deepStrictEqual(yield* repo.published(ws.id, { from: T0, to: T0 + 1, accountId: "acc_9" }), [])
      }).pipe(Effect.provide(storage()))
    )

    it.effect("demand makes a post due now, once per account per floor", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const repo = yield* MetricsRepo
        const t = target(ws.id, 7)
        yield* repo.schedule([t])
        assert.deepStrictEqual(yield* repo.demand(ws.id, t.postId, T0 + 60_000, 900_000), {
          queued: 1,
          notBefore: null
        })
        assert.strictEqual((yield* repo.lease(T0 + 60_000, ten, 1_000)).length, 1)
        assert.deepStrictEqual(yield* repo.demand(ws.id, t.postId, T0 + 120_000, 900_000), {
          queued: 0,
          notBefore: T0 + 960_000
        })
        // Another workspace's post is not found.
        assert.strictEqual((yield* repo.demand("ws_other", t.postId, T0 + 2 * HOUR, 900_000)).queued, 0)
      }).pipe(Effect.provide(storage()))
    )
    it.effect("an account is read by one lease at a time; the heartbeat keeps it, a finished target is let go", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const repo = yield* MetricsRepo
        yield* repo.schedule([target(ws.id, 1), target(ws.id, 2, { publishedAt: T0 + HOUR })])
        const [first] = yield* repo.lease(T0 + HOUR, ten, HOUR + 1_000)
        assert.deepStrictEqual(
          first.targets.map((t) => t.externalId),
          ["x1"]
        )
        // Target 2 comes due while the account's lease is held: it waits for that lease to end.
        assert.deepStrictEqual(yield* repo.lease(T0 + 2 * HOUR, ten, 1_000), [])
        yield* repo.extend([first], T0 + 2 * HOUR + 60_000)
        assert.deepStrictEqual(yield* repo.lease(T0 + 2 * HOUR + 59_999, ten, 1_000), [])
        // Handed back (due again now): the heartbeat of its old lease does not take it again.
        yield* repo.postpone(first.targets, T0 + 2 * HOUR, null)
        yield* repo.extend([first], T0 + 3 * HOUR)
        const [again] = yield* repo.lease(T0 + 2 * HOUR + 60_000, ten, 1_000)
        assert.deepStrictEqual(
          again.targets.map((t) => t.externalId),
          ["x1", "x2"]
        )
        assert.notStrictEqual(again.id, first.id)
      }).pipe(Effect.provide(storage()))
    )

    it.effect("workspaces take turns for accounts, and the chosen accounts for the targets of a look", () =>
      Effect.gen(function* () {
        const big = yield* seedWorkspace()
        const small = yield* seedWorkspace()
        // The big workspace's backlog is older than the small one's single target.
        const backlog = [1, 2, 3].flatMap((a) =>
          [1, 2, 3, 4].map((n) =>
            target(big.id, a * 10 + n, { accountId: `acc_big${a}`, publishedAt: T0 - (10 - a) * HOUR - n })
          )
        )
        yield* (yield* MetricsRepo).schedule([...backlog, target(small.id, 99, { accountId: "acc_small" })])
        const leases = yield* (yield* MetricsRepo).lease(T0 + HOUR, { accounts: 2, targets: 5 }, 60_000)
        // Each workspace's first account, the oldest first; their targets shared out in turns (3 + 1, then 1 more).
        assert.deepStrictEqual(
          leases.map((l) => [l.accountId, l.targets.length]),
          [
            ["acc_big1", 4],
            ["acc_small", 1]
          ]
        )
        assert.deepStrictEqual(
          leases[0].targets.map((t) => t.externalId),
          ["x14", "x13", "x12", "x11"]
        )
        const next = yield* (yield* MetricsRepo).lease(T0 + HOUR, { accounts: 3, targets: 5 }, 60_000)
        assert.deepStrictEqual(
          next.map((l) => [l.accountId, l.targets.length]),
          [
            ["acc_big2", 3],
            ["acc_big3", 2]
          ]
        )
      }).pipe(Effect.provide(storage()))
    )

    it.effect("a reconnected account is available again, and what was put off while unavailable is due now", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const repo = yield* MetricsRepo
        yield* repo.schedule([target(ws.id, 1), target(ws.id, 2)])
        const [lease] = yield* repo.lease(T0 + HOUR, ten, 60_000)
        const [a, b] = lease.targets
        const at = T0 + HOUR
        const state = { accountId: "acc_1", state: "available" as const, reason: null, checkedAt: at }
        // One read (next at 24 h, on schedule), the other refused and put off a week.
        yield* repo.complete([{ target: a, raw: { like_count: 1 }, stage: 1, dueAt: T0 + 24 * HOUR }], at, state)
        yield* repo.postpone([b], at + 7 * 24 * HOUR, { ...state, state: "unavailable", reason: "scope" })
        assert.isFalse(yield* repo.reconnected("ws_other", "acc_1", at + HOUR, refreshOffsetsMs))
        assert.isTrue(yield* repo.reconnected(ws.id, "acc_1", at + HOUR, refreshOffsetsMs))
        assert.strictEqual((yield* repo.accountStates(ws.id, ["acc_1"]))[0].state, "available")
        assert.isNull((yield* repo.accountStates(ws.id, ["acc_1"]))[0].reason)
        const [due] = yield* repo.lease(at + HOUR, ten, 60_000)
        assert.deepStrictEqual(
          due.targets.map((t) => t.externalId),
          [b.externalId]
        )
        // Available already: nothing to clear.
        assert.isFalse(yield* repo.reconnected(ws.id, "acc_1", at + HOUR, refreshOffsetsMs))
      }).pipe(Effect.provide(storage()))
    )
  })

suite("memory", () => Memory.layer)

await withTestServer("postgres metrics", () => {
  const backend = testDatabase(4)
  suite("postgres", () => freshSqlStorage(backend))
})
