import { Clock, Effect } from "effect"
import { MetricsRepo } from "../../ports/MetricsRepo.ts"
import { refreshLease } from "./refresh.ts"

/** How the metrics refresh runs in a scheduler; tests and the bench shorten them. */
export interface MetricsOptions {
  /** Due targets leased per look (grouped by account into leases). */
  readonly batch: number
  /** Leases (accounts) refreshed at once. */
  readonly concurrency: number
  /** Idle wait between two looks. */
  readonly pollMs: number
  /** How long a scheduler holds leased targets; longer than a lease's calls take. */
  readonly leaseMs: number
}

export const defaultMetricsOptions: MetricsOptions = { batch: 500, concurrency: 32, pollMs: 1_000, leaseMs: 120_000 }

/**
 * One look at the due table: leases due targets and refreshes them, each account's lease on its own
 * fiber; how many targets it took. Kept apart from the loop so that the one lease loop can call it.
 */
export const refreshDue = Effect.fn("refreshDueMetrics")(function* (options: MetricsOptions) {
  const leases = yield* (yield* MetricsRepo).lease(yield* Clock.currentTimeMillis, options.batch, options.leaseMs)
  yield* Effect.forEach(leases, refreshLease, { concurrency: options.concurrency, discard: true })
  return leases.reduce((n, l) => n + l.targets.length, 0)
})

/** The refresh loop of a scheduler until interrupted: looks again at once while work was found, else after `pollMs`. */
export const runMetricsLoop = (options: MetricsOptions) =>
  Effect.forever(
    Effect.flatMap(refreshDue(options), (taken) => (taken === 0 ? Effect.sleep(options.pollMs) : Effect.void)).pipe(
      Effect.catchCause((cause) =>
        Effect.andThen(Effect.logError("metrics refresh failed", cause), Effect.sleep(options.pollMs))
      )
    )
  )
