import { Context, type Effect } from "effect"

export interface RateDecision {
  readonly allowed: boolean
  /** When refused: milliseconds until the window admits another hit. */
  readonly retryAfterMs: number
}

export interface RateLimiterShape {
  /** Counts one hit against `bucket` in a fixed window of `windowMs`; refuses past `limit`. */
  readonly hit: (bucket: string, limit: number, windowMs: number, now: number) => Effect.Effect<RateDecision>
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()("herald/RateLimiter") {}
