import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimiter, type RateLimiterShape } from "../../application/ports/RateLimiter.ts"
import { fromDate, toDate } from "./time.ts"

/**
 * Fixed windows aligned to multiples of the window length (like the memory adapter), one row per
 * bucket, counted by one atomic upsert so that every HTTP host sharing the database shares the limit.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    hit: (bucket, limit, windowMs, now) => {
      const windowStart = Math.floor(now / windowMs) * windowMs
      if (limit <= 0) return Effect.succeed({ allowed: false, retryAfterMs: windowStart + windowMs - now })
      // A newer window starts the count again; the same (or an older, from a host whose clock lags)
      // window counts on, and a full window is left untouched, so the statement returns no row.
      return sql<{ count: number }>`
        INSERT INTO rate_windows (bucket, window_ms, window_start, count)
        VALUES (${bucket}, ${windowMs}, ${toDate(windowStart)}, 1)
        ON CONFLICT (bucket, window_ms) DO UPDATE SET
          count = CASE WHEN rate_windows.window_start < excluded.window_start THEN 1 ELSE rate_windows.count + 1 END,
          window_start = GREATEST(rate_windows.window_start, excluded.window_start)
          WHERE rate_windows.window_start < excluded.window_start OR rate_windows.count < ${limit}
        RETURNING count`.pipe(
        Effect.flatMap((rows) =>
          rows.length > 0
            ? Effect.succeed({ allowed: true, retryAfterMs: 0 })
            : sql<{ window_start: Date }>`
                SELECT window_start FROM rate_windows WHERE bucket = ${bucket} AND window_ms = ${windowMs}`.pipe(
                Effect.map((held) => {
                  const start = held[0] ? fromDate(held[0].window_start) : windowStart
                  return { allowed: false, retryAfterMs: Math.max(1, start + windowMs - now) }
                })
              )
        ),
        Effect.orDie
      )
    }
  } satisfies RateLimiterShape
})

export const layer = Layer.effect(RateLimiter)(make)
