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
  })
