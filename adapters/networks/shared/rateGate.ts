import { Clock, Effect } from "effect"

/**
 * What a network said about its limits, kept in memory: a key (an account and an endpoint, or the
 * whole app) is closed until the time the network named. A call whose keys are closed is refused at
 * once, without reaching the network; each scheduler learns this from its own calls. Time is the
 * Effect Clock, so tests drive it with TestClock.
 */
export interface RateGate {
  /** Milliseconds until every key given is open again; 0 when all are open now. */
  readonly waitFor: (keys: ReadonlyArray<string>) => Effect.Effect<number>
  /** Closes `key` until `untilMs` (epoch ms); an earlier close that ends later is kept. */
  readonly closeUntil: (key: string, untilMs: number) => Effect.Effect<void>
}

/** Past this many closed keys, ended ones are swept on the next close, so the map stays as big as the live ones. */
const SWEEP_ABOVE = 1024

export const makeRateGate = (): RateGate => {
  const closed = new Map<string, number>()
  return {
    waitFor: (keys) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        let wait = 0
        for (const key of keys) {
          const until = closed.get(key)
          if (until === undefined) continue
          if (until <= now) closed.delete(key)
          else wait = Math.max(wait, until - now)
        }
        return wait
      }),
    closeUntil: (key, untilMs) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        if (untilMs <= now) return
        if (closed.size > SWEEP_ABOVE) for (const [k, until] of closed) if (until <= now) closed.delete(k)
        closed.set(key, Math.max(untilMs, closed.get(key) ?? 0))
      })
  }
}
