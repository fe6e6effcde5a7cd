import { Effect, Layer } from "effect"
import { RateLimiter, type RateLimiterShape } from "../../application/ports/RateLimiter.ts"
import { MemoryState } from "./MemoryState.ts"

/** Fixed windows aligned to multiples of the window length, like the Postgres adapter. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  return {
    hit: (bucket, limit, windowMs, now) =>
      state.sync(() => {
        const windowStart = Math.floor(now / windowMs) * windowMs
        const key = `${bucket}\u0000${windowMs}`
        const current = state.tables.rates.get(key)
        const count = current && current.windowStart === windowStart ? current.count : 0
        if (count >= limit) return { allowed: false, retryAfterMs: windowStart + windowMs - now }
        state.tables.rates.set(key, { windowStart, count: count + 1 })
        return { allowed: true, retryAfterMs: 0 }
      })
  } satisfies RateLimiterShape
})

export const layer = Layer.effect(RateLimiter)(make)
