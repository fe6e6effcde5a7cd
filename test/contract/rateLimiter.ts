import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { RateLimiter } from "../../application/ports/RateLimiter.ts"
import { layerOptions, newId, type SuiteOptions } from "./fixtures.ts"

const HOUR = 3_600_000
/** The start of an hour window, so the expected waits are easy to read. */
const windowStart = Math.floor(Date.UTC(2026, 0, 15, 12) / HOUR) * HOUR

export const rateLimiterContract = (name: string, ports: Layer.Layer<RateLimiter, unknown>, options?: SuiteOptions) =>
  layer(ports, layerOptions(options))(`RateLimiter contract (${name})`, (it) => {
    it.effect("admits up to the limit in a window, then refuses until the next window", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("signup:ip")
        for (let i = 0; i < 3; i++)
          assert.deepStrictEqual(yield* limiter.hit(bucket, 3, HOUR, windowStart + 1000 * i), {
            allowed: true,
            retryAfterMs: 0
          })
        assert.deepStrictEqual(yield* limiter.hit(bucket, 3, HOUR, windowStart + 10 * 60_000), {
          allowed: false,
          retryAfterMs: 50 * 60_000
        })
        assert.deepStrictEqual(yield* limiter.hit(bucket, 3, HOUR, windowStart + HOUR - 1), {
          allowed: false,
          retryAfterMs: 1
        })
        assert.isTrue((yield* limiter.hit(bucket, 3, HOUR, windowStart + HOUR)).allowed)
        assert.isTrue((yield* limiter.hit(bucket, 3, HOUR, windowStart + HOUR + 1)).allowed)
        assert.isTrue((yield* limiter.hit(bucket, 3, HOUR, windowStart + HOUR + 2)).allowed)
        assert.isFalse((yield* limiter.hit(bucket, 3, HOUR, windowStart + HOUR + 3)).allowed)
      })
    )

    it.effect("a window that passed with no hits starts afresh", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("signin:email")
        yield* limiter.hit(bucket, 1, HOUR, windowStart)
        assert.isFalse((yield* limiter.hit(bucket, 1, HOUR, windowStart + 5)).allowed)
        assert.isTrue((yield* limiter.hit(bucket, 1, HOUR, windowStart + 5 * HOUR)).allowed)
      })
    )

    it.effect("buckets and window lengths are counted apart", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const a = newId("bucket")
        const b = newId("bucket")
        assert.isTrue((yield* limiter.hit(a, 1, HOUR, windowStart)).allowed)
        assert.isFalse((yield* limiter.hit(a, 1, HOUR, windowStart)).allowed)
        assert.isTrue((yield* limiter.hit(b, 1, HOUR, windowStart)).allowed)
        assert.isTrue((yield* limiter.hit(a, 1, 24 * HOUR, windowStart)).allowed)
      })
    )

    it.effect("concurrent hits never admit more than the limit", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("bucket")
        const decisions = yield* Effect.forEach(
          Array.from({ length: 30 }),
          () => limiter.hit(bucket, 5, HOUR, windowStart + 7),
          {
            concurrency: "unbounded"
          }
        )
        assert.strictEqual(decisions.filter((d) => d.allowed).length, 5)
        for (const d of decisions) if (!d.allowed) assert.strictEqual(d.retryAfterMs, HOUR - 7)
      })
    )
    it.effect("a lease takes several hits at once, the rest of the window at its end, then none", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("request:key")
        assert.deepStrictEqual(yield* limiter.take(bucket, 25, HOUR, windowStart + 10, 10), {
          granted: 10,
          retryAfterMs: 0
        })
        assert.deepStrictEqual(yield* limiter.take(bucket, 25, HOUR, windowStart + 20, 10), {
          granted: 10,
          retryAfterMs: 0
        })
        // Five left of 25: a partial grant says when the window ends.
        assert.deepStrictEqual(yield* limiter.take(bucket, 25, HOUR, windowStart + 30, 10), {
          granted: 5,
          retryAfterMs: HOUR - 30
        })
        assert.deepStrictEqual(yield* limiter.take(bucket, 25, HOUR, windowStart + 40, 10), {
          granted: 0,
          retryAfterMs: HOUR - 40
        })
        assert.deepStrictEqual(yield* limiter.take(bucket, 25, HOUR, windowStart + HOUR, 10), {
          granted: 10,
          retryAfterMs: 0
        })
      })
    )

    it.effect("leases and single hits count against one window", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("request:ws")
        assert.isTrue((yield* limiter.hit(bucket, 4, HOUR, windowStart)).allowed)
        assert.strictEqual((yield* limiter.take(bucket, 4, HOUR, windowStart, 2)).granted, 2)
        assert.isTrue((yield* limiter.hit(bucket, 4, HOUR, windowStart)).allowed)
        assert.strictEqual((yield* limiter.take(bucket, 4, HOUR, windowStart, 2)).granted, 0)
        assert.isFalse((yield* limiter.hit(bucket, 4, HOUR, windowStart)).allowed)
      })
    )

    it.effect("a caller whose clock lags counts on in the window another caller started", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("request:key")
        assert.strictEqual((yield* limiter.take(bucket, 10, HOUR, windowStart + HOUR + 5, 8)).granted, 8)
        // Two seconds behind, in the window before: it gets what the newer window has left, and its end.
        assert.deepStrictEqual(yield* limiter.take(bucket, 10, HOUR, windowStart + HOUR - 2000, 8), {
          granted: 2,
          retryAfterMs: HOUR + 2000
        })
      })
    )

    it.effect("concurrent leases from many callers never grant more than the limit", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const bucket = newId("request:key")
        const leases = yield* Effect.forEach(
          Array.from({ length: 24 }),
          () => limiter.take(bucket, 100, HOUR, windowStart + 9, 7),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(
          leases.reduce((sum, lease) => sum + lease.granted, 0),
          100
        )
        // 14 leases of 7 make 98: one lease gets the last 2, the others none.
        assert.deepStrictEqual(
          leases.map((lease) => lease.granted).sort((a, b) => a - b),
          [...Array.from({ length: 9 }, () => 0), 2, ...Array.from({ length: 14 }, () => 7)]
        )
        for (const lease of leases) assert.strictEqual(lease.retryAfterMs, lease.granted < 7 ? HOUR - 9 : 0)
      })
    )
  })
