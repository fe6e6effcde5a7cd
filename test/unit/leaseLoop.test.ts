import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { type Leasing, leaseOnce, startLeaseLoop } from "../../application/leaseLoop.ts"

interface Item {
  readonly id: string
}

/** A queue of `n` items due at once, each taking `workMs`; it records leases, renewals and peak concurrency. */
const fakeQueue = (n: number, workMs: number) => {
  const due = Array.from({ length: n }, (_, i) => ({ id: `item${i}` }))
  const log = { leased: [] as Array<number>, renewed: [] as Array<{ at: number; ids: Array<string> }>, peak: 0 }
  let inFlight = 0
  const leasing: Leasing<Item> = {
    name: "fake items",
    lease: (_now, max) =>
      Effect.sync(() => {
        const items = due.splice(0, max)
        log.leased.push(items.length)
        return items
      }),
    extend: (items, until) => Effect.sync(() => log.renewed.push({ at: until, ids: items.map((i) => i.id) })),
    handle: (items, done) =>
      Effect.forEach(
        items,
        (item) =>
          Effect.gen(function* () {
            inFlight++
            log.peak = Math.max(log.peak, inFlight)
            yield* Effect.sleep(workMs)
            inFlight--
            yield* done(item)
          }),
        { concurrency: "unbounded", discard: true }
      )
  }
  return { leasing, log, left: () => due.length }
}

/** Lets the forked fibers start before the clock moves. */
const settle = Effect.repeat(Effect.yieldNow, { times: 10 })

const options = { concurrency: 4, batch: 4, pollMs: 100, gatherMs: 10, gather: 2, leaseMs: 3_000 }

describe("the lease loop (TestClock)", () => {
  it.effect("keeps at most `concurrency` items in flight and renews every held lease in one call per beat", () =>
    Effect.gen(function* () {
      const q = fakeQueue(10, 5_000)
      yield* startLeaseLoop(q.leasing, options)
      yield* settle
      yield* TestClock.adjust(1_000)
      // Renewed each third of the lease, all four together, while their work (5 s) outlasts the lease (3 s).
      assert.deepStrictEqual(
        q.log.renewed.map((r) => r.ids.length),
        [4]
      )
      assert.strictEqual(q.log.renewed[0]!.at, 1_000 + options.leaseMs)
      yield* TestClock.adjust(4_100)
      assert.strictEqual(q.log.peak, 4)
      assert.isTrue(q.log.renewed.every((r) => r.ids.length <= 4))
      yield* TestClock.adjust(20_000)
      assert.strictEqual(q.left(), 0)
      assert.strictEqual(q.log.peak, 4)
      // Nothing held: no more renewals.
      const beats = q.log.renewed.length
      yield* TestClock.adjust(10_000)
      assert.strictEqual(q.log.renewed.length, beats)
    }).pipe(Effect.scoped)
  )

  it.effect("a finished item's lease is not renewed; a stop lets work in flight finish within the grace", () =>
    Effect.gen(function* () {
      const q = fakeQueue(2, 1_500)
      const loop = yield* startLeaseLoop(q.leasing, options)
      yield* settle
      yield* TestClock.adjust(1_200)
      assert.deepStrictEqual(q.log.renewed.at(-1)?.ids.sort(), ["item0", "item1"])
      yield* TestClock.adjust(1_000)
      assert.deepStrictEqual(q.log.renewed.at(-1)?.ids.length, 2, "the last beat came while both were out")
      yield* TestClock.adjust(1_000)
      const after = q.log.renewed.length
      yield* TestClock.adjust(3_000)
      assert.strictEqual(q.log.renewed.length, after, "done items are not renewed")
      yield* loop.stop(1_000)
    }).pipe(Effect.scoped)
  )

  it.effect("leaseOnce runs one batch with its heartbeat and answers how many it took", () =>
    Effect.gen(function* () {
      const q = fakeQueue(3, 4_000)
      const fiber = yield* Effect.forkChild(leaseOnce(q.leasing, 2, options.leaseMs))
      yield* settle
      yield* TestClock.adjust(5_000)
      assert.strictEqual(yield* Fiber.join(fiber), 2)
      assert.strictEqual(q.left(), 1)
      assert.isAtLeast(q.log.renewed.length, 1)
    })
  )
})
