import { Effect, Layer } from "effect"
import { RateLimiter, type RateLease, type RateLimiterShape } from "../../application/ports/RateLimiter.ts"
import { MemoryState } from "./MemoryState.ts"

/** Fixed windows aligned to multiples of the window length, like the Postgres adapter. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const take = (bucket: string, limit: number, windowMs: number, now: number, count: number): RateLease => {
    const windowStart = Math.floor(now / windowMs) * windowMs
    const key = `${bucket}\u0000${windowMs}`
    const current = state.tables.rates.get(key)
    // A newer window starts afresh; an older one (a caller whose clock lags) counts on in the held window.
    const held = current !== undefined && current.windowStart >= windowStart ? current : { windowStart, count: 0 }
    const granted = Math.max(0, Math.min(count, limit - held.count))
    if (granted > 0) state.tables.rates.set(key, { windowStart: held.windowStart, count: held.count + granted })
    return { granted, retryAfterMs: granted < count ? Math.max(1, held.windowStart + windowMs - now) : 0 }
  }
  return {
    hit: (bucket, limit, windowMs, now) =>
      state.sync(() => {
        const lease = take(bucket, limit, windowMs, now, 1)
        return { allowed: lease.granted === 1, retryAfterMs: lease.retryAfterMs }
      }),
    take: (bucket, limit, windowMs, now, count) => state.sync(() => take(bucket, limit, windowMs, now, count))
  } satisfies RateLimiterShape
})

export const layer = Layer.effect(RateLimiter)(make)
