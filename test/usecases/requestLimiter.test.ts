import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as MemoryRateLimiter from "../../adapters/memory/MemoryRateLimiter.ts"
import * as MemoryState from "../../adapters/memory/MemoryState.ts"
import type { RequestLimits } from "../../application/config.ts"
import { RateLimiter, type RateLimiterShape } from "../../application/ports/RateLimiter.ts"
import * as RequestLimiter from "../../application/requestLimiter.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { HeraldError } from "../../domain/errors.ts"

const keyOf = (keyId: string, workspaceId = "ws_1"): Actor => ({
  kind: "key",
  workspaceId,
  keyId,
  name: "agent",
  requireApproval: false
})
const person: Actor = { kind: "person", workspaceId: "ws_1", personId: "p_1", name: "Ann", email: "ann@herald.test" }

/** The shared count (the memory adapter, as a database would be), with the leases taken from it. */
const sharedCount = Effect.gen(function* () {
  const shared = yield* MemoryRateLimiter.make.pipe(Effect.provide(MemoryState.layer))
  const takes: Array<{ bucket: string; count: number; granted: number }> = []
  const counting: RateLimiterShape = {
    hit: shared.hit,
    // Yields first, as a database call would: other requests run while a lease is in flight.
    take: (bucket, limit, windowMs, now, count) =>
      Effect.yieldNow.pipe(
        Effect.andThen(shared.take(bucket, limit, windowMs, now, count)),
        Effect.tap((lease) => Effect.sync(() => takes.push({ bucket, count, granted: lease.granted })))
      )
  }
  /** One process's limiter on the shared count. */
  const process = (limits: Partial<RequestLimits> = {}) =>
    RequestLimiter.make({ perKeyPerMinute: 600, perWorkspacePerMinute: 1200, leasePercent: 10, ...limits }).pipe(
      Effect.provide(Layer.succeed(RateLimiter)(counting))
    )
  return { takes, process }
})

/** Admits `n` requests one after another; how many were admitted, and the first refusal. */
const admitMany = (limiter: RequestLimiter.RequestLimiterShape, actor: Actor, n: number) =>
  Effect.gen(function* () {
    let admitted = 0
    let refusal: HeraldError | undefined
    for (let i = 0; i < n; i++) {
      const error = yield* Effect.flip(limiter.admit(actor)).pipe(Effect.option)
      if (error._tag === "None") admitted++
      else refusal ??= error.value
    }
    return { admitted, refusal }
  })

describe("RequestLimiter", () => {
  it.effect("a key gets its limit in a minute, then rate_limited until the minute ends; the next admits again", () =>
    Effect.gen(function* () {
      const { process } = yield* sharedCount
      const limiter = yield* process()
      yield* TestClock.setTime(Date.UTC(2026, 0, 15, 12, 0, 15))
      const first = yield* admitMany(limiter, keyOf("key_a"), 700)
      assert.strictEqual(first.admitted, 600)
      assert.strictEqual(first.refusal?.code, "rate_limited")
      assert.deepStrictEqual(first.refusal?.details, {
        retryAfterSeconds: 45,
        limit: 600,
        windowSeconds: 60,
        scope: "key"
      })
      yield* TestClock.adjust("44 seconds")
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_a"), 1)).admitted, 0)
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_a"), 700)).admitted, 600)
    })
  )

  it.effect("spends leases of a tenth of the budget in memory: one lease per 60 requests, none per refusal", () =>
    Effect.gen(function* () {
      const { process, takes } = yield* sharedCount
      const limiter = yield* process({ perWorkspacePerMinute: 0 })
      yield* admitMany(limiter, keyOf("key_a"), 600)
      assert.deepStrictEqual(
        takes.map((t) => [t.bucket, t.count, t.granted]),
        Array.from({ length: 10 }, () => ["request:key:key_a", 60, 60])
      )
      // The 601st finds the window spent (one lease granting nothing); later refusals ask nothing.
      yield* admitMany(limiter, keyOf("key_a"), 100)
      assert.strictEqual(takes.length, 11)
      assert.strictEqual(takes[10]!.granted, 0)
    })
  )

  it.effect("the keys of a workspace share its budget; a person's session counts against it too", () =>
    Effect.gen(function* () {
      const { process } = yield* sharedCount
      const limiter = yield* process({ perKeyPerMinute: 8, perWorkspacePerMinute: 12 })
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_a"), 10)).admitted, 8)
      assert.strictEqual((yield* admitMany(limiter, person, 2)).admitted, 2)
      const b = yield* admitMany(limiter, keyOf("key_b"), 10)
      assert.strictEqual(b.admitted, 2)
      assert.strictEqual(b.refusal?.details?.scope, "workspace")
      assert.strictEqual((yield* admitMany(limiter, person, 1)).admitted, 0)
      // Another workspace has its own budget.
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_c", "ws_2"), 10)).admitted, 8)
    })
  )

  it.effect("a key over its limit takes nothing from its workspace's budget", () =>
    Effect.gen(function* () {
      const { process } = yield* sharedCount
      const limiter = yield* process({ perKeyPerMinute: 3, perWorkspacePerMinute: 6, leasePercent: 100 })
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_a"), 50)).admitted, 3)
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_b"), 50)).admitted, 3)
    })
  )

  it.effect("processes on one shared count never admit more than the limit; one refuses a lease early at most", () =>
    Effect.gen(function* () {
      const { process } = yield* sharedCount
      const a = yield* process({ perWorkspacePerMinute: 0 })
      const b = yield* process({ perWorkspacePerMinute: 0 })
      const key = keyOf("key_a")
      assert.strictEqual((yield* admitMany(a, key, 30)).admitted, 30)
      // a holds the 30 left of its lease of 60: b gets what the shared count has left.
      assert.strictEqual((yield* admitMany(b, key, 700)).admitted, 540)
      assert.strictEqual((yield* admitMany(a, key, 100)).admitted, 30)
    })
  )

  it.effect("three processes taking requests in any order admit between limit - 2 leases and the limit", () =>
    Effect.gen(function* () {
      const { process } = yield* sharedCount
      const hosts = [yield* process(), yield* process(), yield* process()]
      let seed = 7
      let admitted = 0
      for (let i = 0; i < 2000; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648
        admitted += (yield* admitMany(hosts[seed % 3]!, keyOf("key_a"), 1)).admitted
      }
      assert.isAtMost(admitted, 600)
      assert.isAtLeast(admitted, 600 - 2 * 60)
    })
  )

  it.effect("concurrent requests of a budget wait for one lease instead of each asking", () =>
    Effect.gen(function* () {
      const { process, takes } = yield* sharedCount
      const limiter = yield* process({ perWorkspacePerMinute: 0 })
      const exits = yield* Effect.forEach(
        Array.from({ length: 50 }),
        () => Effect.exit(limiter.admit(keyOf("key_a"))),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(exits.filter((e) => e._tag === "Success").length, 50)
      assert.strictEqual(takes.length, 1)
    })
  )

  it.effect("leases of a minute gone by are not spent in the next; a call that carries several counts them all", () =>
    Effect.gen(function* () {
      const { process, takes } = yield* sharedCount
      const limiter = yield* process({ perKeyPerMinute: 100, perWorkspacePerMinute: 0, leasePercent: 50 })
      yield* TestClock.setTime(Date.UTC(2026, 0, 15, 12, 0, 59))
      yield* limiter.admit(keyOf("key_a"))
      yield* TestClock.adjust("1 second")
      yield* limiter.admit(keyOf("key_a"), 49)
      assert.deepStrictEqual(
        takes.map((t) => t.granted),
        [50, 50]
      )
      // 49 + 1 of the new minute's 50 leased: a call of 2 needs a second lease.
      yield* limiter.admit(keyOf("key_a"))
      yield* limiter.admit(keyOf("key_a"), 2)
      assert.strictEqual(takes.length, 3)
      const tooMany = yield* Effect.flip(limiter.admit(keyOf("key_a"), 60))
      assert.strictEqual(tooMany.code, "rate_limited")
    })
  )

  it.effect("a limit of 0 is off", () =>
    Effect.gen(function* () {
      const { process, takes } = yield* sharedCount
      const limiter = yield* process({ perKeyPerMinute: 0, perWorkspacePerMinute: 0 })
      assert.strictEqual((yield* admitMany(limiter, keyOf("key_a"), 5000)).admitted, 5000)
      assert.strictEqual(takes.length, 0)
    })
  )
})
