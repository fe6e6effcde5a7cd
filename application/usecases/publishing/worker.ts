import { Effect } from "effect"
import { type Leasing, type LeaseLoop, leaseOnce, startLeaseLoop } from "../../leaseLoop.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import { AccountCache, makeAccountCache } from "./accountCache.ts"
import { runJobs } from "./job.ts"
import type { PipelineOptions } from "./options.ts"
import * as PublishingSteps from "./steps.ts"

type PublishingServices = Exclude<
  Effect.Services<ReturnType<typeof runJobs>>,
  AccountCache | PublishingSteps.PublishingSteps
>

/** Publishing jobs for the lease loop: a batch runs together, so its storage steps share statements. */
const publishingJobs = Effect.fnUntraced(function* (options: PipelineOptions) {
  const queue = yield* JobQueue
  const accounts = yield* makeAccountCache(options.accountCacheMs)
  // One set of batched storage steps for the loop: jobs of different leases share statements too.
  const steps = yield* PublishingSteps.make
  return {
    name: "publishing jobs",
    lease: queue.lease,
    extend: queue.extendMany,
    handle: (jobs, done) =>
      runJobs(jobs, options, done).pipe(
        Effect.provideService(AccountCache, accounts),
        Effect.provideService(PublishingSteps.PublishingSteps, steps)
      )
  } satisfies Leasing<LeasedJob, PublishingServices>
})

/**
 * Leases what is due now (up to `max`) and runs it to an outcome. One pass, no loop: for the CLI and
 * for tests that step the clock themselves. Returns how many jobs ran.
 */
export const publishDueTargets = Effect.fn("publishDueTargets")(function* (options: PipelineOptions, max: number) {
  return yield* leaseOnce(yield* publishingJobs(options), max, options.leaseMs)
})

export type Worker = LeaseLoop

/**
 * Starts the publishing loop in the background of the current scope: at most `concurrency` jobs in
 * flight, short leases kept alive by the loop's heartbeat. Several workers (in one process or many)
 * share one queue; the queue's leases keep them apart.
 */
export const startWorker = Effect.fnUntraced(function* (options: PipelineOptions) {
  return yield* startLeaseLoop(yield* publishingJobs(options), {
    ...options,
    // Under load, lease a few jobs at a time rather than one per freed slot: one statement, many jobs.
    gather: Math.max(1, Math.floor(options.batch / 4))
  })
})
