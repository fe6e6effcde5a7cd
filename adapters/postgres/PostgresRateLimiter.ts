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

  const take = (bucket: string, limit: number, windowMs: number, now: number, count: number) => {
    const windowStart = Math.floor(now / windowMs) * windowMs
    const refused = (start: number) => ({ granted: 0, retryAfterMs: Math.max(1, start + windowMs - now) })
    if (limit <= 0 || count <= 0)
      return Effect.succeed(count <= 0 ? { granted: 0, retryAfterMs: 0 } : refused(windowStart))
    const first = Math.min(count, limit)
    // A newer window starts the count again; the same (or an older, from a host whose clock lags)
    // window counts on. SET reads the row as it was, so `granted` is this statement's share, read back
    // under the row's lock. A full window is left untouched (no write), so the statement returns no row.
    return sql<{ granted: number; window_start: Date }>`
      INSERT INTO rate_windows AS w (bucket, window_ms, window_start, count, granted)
      VALUES (${bucket}, ${windowMs}, ${toDate(windowStart)}, ${first}, ${first})
      ON CONFLICT (bucket, window_ms) DO UPDATE SET
        granted = CASE WHEN w.window_start < excluded.window_start THEN excluded.count
          ELSE LEAST(${count}, ${limit} - w.count) END,
        count = CASE WHEN w.window_start < excluded.window_start THEN excluded.count
          ELSE LEAST(w.count + ${count}, ${limit}) END,
        window_start = GREATEST(w.window_start, excluded.window_start)
        WHERE w.window_start < excluded.window_start OR w.count < ${limit}
      RETURNING granted, window_start`.pipe(
      Effect.flatMap((rows) => {
        const row = rows[0]
        if (row !== undefined)
          return Effect.succeed({
            granted: row.granted,
            retryAfterMs: row.granted < count ? Math.max(1, fromDate(row.window_start) + windowMs - now) : 0
          })
        return sql<{ window_start: Date }>`
          SELECT window_start FROM rate_windows WHERE bucket = ${bucket} AND window_ms = ${windowMs}`.pipe(
          Effect.map((held) => refused(held[0] ? fromDate(held[0].window_start) : windowStart))
        )
      }),
      Effect.orDie
    )
  }

  return {
    hit: (bucket, limit, windowMs, now) =>
      Effect.map(take(bucket, limit, windowMs, now, 1), (lease) => ({
        allowed: lease.granted === 1,
        retryAfterMs: lease.retryAfterMs
      })),
    take
  } satisfies RateLimiterShape
})

export const layer = Layer.effect(RateLimiter)(make)
