/**
 * Per-account pauses learnt from Bluesky's answers (a 429, or `RateLimit-Remaining: 0` with its
 * reset), so no call is made before the reset. In memory: each process learns from its own calls.
 * Times are on the caller's clock (Effect's Clock), so TestClock drives them in tests.
 */
export interface RateGate {
  /** Milliseconds to wait before calling for `key` (0: go ahead). */
  readonly waitFor: (key: string, now: number) => number
  /** No call for `key` before `until`. */
  readonly closeUntil: (key: string, until: number) => void
}

export const makeRateGate = (maxKeys = 10_000): RateGate => {
  const closed = new Map<string, number>()
  return {
    waitFor: (key, now) => {
      const until = closed.get(key)
      if (until === undefined) return 0
      if (until > now) return until - now
      closed.delete(key)
      return 0
    },
    closeUntil: (key, until) => {
      closed.set(key, Math.max(until, closed.get(key) ?? 0))
      // Bounded: the oldest entries go first (a pause past its reset is harmless to forget).
      if (closed.size > maxKeys) closed.delete(closed.keys().next().value!)
    }
  }
}
