import { Effect } from "effect"
import { type Leasing, type LeaseLoop, leaseOnce, startLeaseLoop } from "../../leaseLoop.ts"
import { type MetricsLease, MetricsRepo } from "../../ports/MetricsRepo.ts"
import { refreshLease } from "./refresh.ts"

/** How the metrics refresh runs in a scheduler; tests and the bench shorten them. */
export interface MetricsOptions {
  /** Due targets leased per look at most (the looked-at accounts take turns for them). */
  readonly batch: number
  /** Leases (accounts) refreshed at once. */
  readonly concurrency: number
  /** Idle wait between two looks. */
  readonly pollMs: number
  /** How long a lease lasts without the loop's heartbeat (a scheduler that dies lets its targets go after this). */
  readonly leaseMs: number
  /** Under load, how long a freed slot waits for others before the next look (a look costs a statement). */
  readonly gatherMs: number
}

export const defaultMetricsOptions: MetricsOptions = {
  batch: 500,
  concurrency: 32,
  pollMs: 1_000,
  leaseMs: 30_000,
  gatherMs: 20
}

/** The most posts any network reads in one call (X's GET /2/tweets, the sandbox): a look's share per account. */
const READ_BATCH = 100

/** Accounts a look leases at most: enough to share out `batch` targets a full call each. */
const accountsPerLook = (options: MetricsOptions) =>
  Math.max(1, Math.min(options.concurrency, Math.ceil(options.batch / READ_BATCH)))

type RefreshServices = Effect.Services<ReturnType<typeof refreshLease>>

/** Metrics reads for the lease loop: an item is one account's lease; each goes on its own, its slot freed when read. */
const metricsReads = Effect.fnUntraced(function* (options: MetricsOptions) {
  const repo = yield* MetricsRepo
  return {
    name: "metrics reads",
    lease: (now, max, leaseMs) => repo.lease(now, { accounts: max, targets: options.batch }, leaseMs),
    extend: repo.extend,
    handle: (leases, done) =>
      Effect.forEach(
        leases,
        (lease) =>
          refreshLease(lease).pipe(
            // A crashed read is left to its lease, which runs out once the loop stops renewing it.
            Effect.catchCause((cause) => Effect.logError("metrics refresh crashed; its lease will run out", cause)),
            Effect.ensuring(done(lease))
          ),
        { concurrency: "unbounded", discard: true }
      )
  } satisfies Leasing<MetricsLease, RefreshServices>
})

/** Leases what is due now (up to `max` accounts) and reads it. One pass: for tests that step the clock. How many accounts. */
export const refreshDueMetrics = Effect.fn("refreshDueMetrics")(function* (
  options: MetricsOptions,
  max = options.concurrency
) {
  return yield* leaseOnce(yield* metricsReads(options), max, options.leaseMs)
})

export type MetricsWorker = LeaseLoop

/**
 * The metrics refresh in the background of the current scope, on the one lease loop with its own slots:
 * at most `concurrency` accounts read at once, each account by one lease at a time, leases kept alive
 * by the loop's heartbeat.
 */
export const startMetricsWorker = Effect.fnUntraced(function* (options: MetricsOptions) {
  const perLook = accountsPerLook(options)
  return yield* startLeaseLoop(yield* metricsReads(options), {
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    leaseMs: options.leaseMs,
    batch: perLook,
    gather: perLook,
    gatherMs: options.gatherMs
  })
})
