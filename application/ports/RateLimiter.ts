import { Context, type Effect } from "effect"

export interface RateDecision {
  readonly allowed: boolean
  /** When refused: milliseconds until the window admits another hit. */
  readonly retryAfterMs: number
}

export interface RateLease {
  /** Hits granted, from 0 to the count asked for: fewer when the window has fewer left. */
  readonly granted: number
  /** When fewer were granted than asked: milliseconds until the window admits more; else 0. */
  readonly retryAfterMs: number
}

/**
 * Fixed windows aligned to multiples of the window length, one count per bucket and window length.
 * A window never admits more than `limit` hits, however many callers (processes, hosts) share it.
 */
export interface RateLimiterShape {
  /** Counts one hit against `bucket` in a fixed window of `windowMs`; refuses past `limit`. */
  readonly hit: (bucket: string, limit: number, windowMs: number, now: number) => Effect.Effect<RateDecision>
  /** Takes up to `count` hits at once (a lease a process spends in memory); the same count as `hit`'s. */
  readonly take: (
    bucket: string,
    limit: number,
    windowMs: number,
    now: number,
    count: number
  ) => Effect.Effect<RateLease>
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("herald/RateLimiter") {}
