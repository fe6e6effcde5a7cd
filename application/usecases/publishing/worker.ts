import { Clock, Effect, Fiber, FiberSet, Option, Semaphore } from "effect"
import { JobQueue } from "../../ports/JobQueue.ts"
import type { PipelineOptions } from "./options.ts"
import { AccountCache, makeAccountCache } from "./accountCache.ts"
import { runJobs } from "./job.ts"
import * as PublishingSteps from "./steps.ts"

/**
 * Leases what is due now (up to `max`) and runs it to an outcome. One pass, no loop: for the CLI and
 * for tests that step the clock themselves. Returns how many jobs ran.
 */
export const publishDueTargets = Effect.fn("publishDueTargets")(function* (options: PipelineOptions, max: number) {
  const at = yield* Clock.currentTimeMillis
  const jobs = yield* (yield* JobQueue).lease(at, max, options.leaseMs)
  yield* runJobs(jobs, options).pipe(
    Effect.provideService(PublishingSteps.PublishingSteps, yield* PublishingSteps.make)
  )
  return jobs.length
})

export interface Worker {
  /** Stops leasing, lets jobs in flight finish for up to `graceMs`, then hands the rest back to the queue. */
  readonly stop: (graceMs: number) => Effect.Effect<void>
}

/**
 * Starts the publishing loop in the background of the current scope: at most `concurrency` jobs in
 * flight; it leases as slots free up and looks again after `pollMs` when nothing is due. Several
 * workers (in one process or many) share one queue; the queue's leases keep them apart.
 */
export const startWorker = Effect.fnUntraced(function* (options: PipelineOptions) {
  const queue = yield* JobQueue
  const accounts = yield* makeAccountCache(options.accountCacheMs)
  // One set of batched storage steps for the worker: jobs of different leases share statements too.
  const steps = yield* PublishingSteps.make
  const slots = yield* Semaphore.make(options.concurrency)
  const running = yield* FiberSet.make<void, never>()
  let stopping = false

  // Under load, lease a few jobs at a time rather than one per freed slot: one statement, many jobs.
  const gather = Math.max(1, Math.floor(options.batch / 4))

  // Lease and fork without interruption, so a stop never drops jobs leased but not yet started.
  const pass = (free: number) =>
    Effect.uninterruptible(
      Effect.gen(function* () {
        while (free < options.batch && (yield* Semaphore.takeIfAvailable(slots, 1))) free++
        const at = yield* Clock.currentTimeMillis
        const jobs = yield* queue
          .lease(at, free, options.leaseMs)
          .pipe(Effect.catchCause((cause) => Effect.as(Effect.logError("leasing failed", cause), [])))
        if (free > jobs.length) yield* Semaphore.release(slots, free - jobs.length)
        // Each job frees its slot as it finishes; whatever was not freed (a crash, a stop) is freed at the end.
        let freed = 0
        const release = (n: number): Effect.Effect<void> =>
          Effect.suspend(() => {
            freed += n
            return Semaphore.release(slots, n)
          })
        if (jobs.length > 0)
          yield* FiberSet.run(
            running,
            runJobs(jobs, options, release).pipe(
              Effect.provideService(AccountCache, accounts),
              Effect.provideService(PublishingSteps.PublishingSteps, steps),
              Effect.ensuring(
                Effect.suspend(
                  (): Effect.Effect<void> => (jobs.length > freed ? release(jobs.length - freed) : Effect.void)
                )
              )
            )
          )
        return jobs.length === free
      })
    )

  const loop = Effect.gen(function* () {
    let more = false
    while (!stopping) {
      yield* Semaphore.take(slots, 1)
      let free = 1
      // More jobs are waiting: give a few more slots a moment to free up before leasing.
      if (
        more &&
        gather > 1 &&
        Option.isSome(yield* Effect.timeoutOption(Semaphore.take(slots, gather - 1), options.gatherMs))
      )
        free = gather
      more = yield* pass(free)
      if (!more && !stopping) yield* Effect.sleep(options.pollMs)
    }
  })
  const loopFiber = yield* Effect.forkScoped(loop)

  return {
    stop: (graceMs) =>
      Effect.gen(function* () {
        stopping = true
        yield* Fiber.interrupt(loopFiber)
        yield* FiberSet.awaitEmpty(running).pipe(Effect.timeoutOption(graceMs))
        yield* FiberSet.clear(running)
      })
  } satisfies Worker
})
