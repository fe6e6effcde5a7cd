import { Cause, Clock, Effect } from "effect"
import type { TargetError } from "../../../domain/post.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import { runCommentJob } from "./commentJob.ts"
import { targetError } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import { type RetryLater, writeTarget } from "./postTx.ts"
import { inFlight, runPublishJob } from "./publishJob.ts"

export const leaseLost = (job: LeasedJob) =>
  Effect.logWarning("lease lost; the new owner recovers").pipe(Effect.annotateLogs({ job: job.id }))

/** Records a final failure on the target (or its first comment) and completes the job, together. */
export const failFinally = (job: LeasedJob, error: TargetError) =>
  Effect.gen(function* () {
    const at = yield* Clock.currentTimeMillis
    yield* writeTarget(job, at, (yield* JobQueue).complete(job), ({ target }) =>
      job.kind === "publish"
        ? { ...target, status: "failed", error, attempts: target.attempts + job.attempts }
        : { ...target, firstComment: { status: "failed", externalId: null, error } })
    yield* Effect.logWarning("publishing failed for good").pipe(Effect.annotateLogs({ job: job.id, post: job.postId, code: error.code }))
  }).pipe(Effect.catchTag("LeaseLost", () => leaseLost(job)))

/** Bounded retries: back off (or wait what the network asked), then give up with the last error. */
export const retryLater = (job: LeasedJob, options: PipelineOptions, e: RetryLater) =>
  Effect.gen(function* () {
    const failures = job.failures + 1
    if (failures >= options.maxFailures) return yield* failFinally(job, e.error)
    const at = yield* Clock.currentTimeMillis
    const wait = Math.max(options.backoffMs(failures), e.retryAfterMs ?? 0)
    // A target waiting for its retry is in flight: publishing, not scheduled.
    yield* writeTarget(job, at, (yield* JobQueue).retryAt(job, at + wait, { failure: true, clearCheckpoint: e.clearCheckpoint }),
      (loaded) => (job.kind === "publish" ? inFlight(loaded) : loaded.target))
    yield* Effect.logInfo("publishing will retry").pipe(Effect.annotateLogs({ job: job.id, code: e.error.code, inMs: wait }))
  }).pipe(Effect.catchTag("LeaseLost", () => leaseLost(job)))

/** Keeps the lease alive while the job runs, so a slow upload is not taken over by another worker. */
export const heartbeat = (job: LeasedJob, options: PipelineOptions) =>
  Effect.gen(function* () {
    const queue = yield* JobQueue
    while (true) {
      yield* Effect.sleep(Math.max(1, Math.floor(options.leaseMs / 3)))
      if (!(yield* queue.extend(job, (yield* Clock.currentTimeMillis) + options.leaseMs))) return
    }
  })

/**
 * Runs one leased job to an outcome: done, retry later, or failed for good. Never fails: an
 * unexpected error (storage down, a bug) counts as a failed try with the checkpoint kept, and an
 * interruption (shutdown) hands the job back to the queue at once, checkpoint kept, for the next
 * worker to recover.
 */
export const processJob = (job: LeasedJob, options: PipelineOptions) => {
  const work = job.attempts > options.maxLeases
    ? failFinally(job, job.checkpoint !== null
        ? targetError("publish_outcome_unknown")
        : targetError("internal_error", `The publishing worker stopped ${job.attempts - 1} times on this job.`))
    : (job.kind === "publish" ? runPublishJob(job, options) : runCommentJob(job, options)).pipe(
        Effect.catchTags({
          LeaseLost: () => leaseLost(job),
          FinalFailure: (e) => failFinally(job, e.error),
          RetryLater: (e) => retryLater(job, options, e)
        })
      )
  return Effect.scoped(Effect.andThen(Effect.forkScoped(heartbeat(job, options)), work)).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.gen(function* () {
            yield* Effect.logError("publishing job crashed", cause).pipe(Effect.annotateLogs({ job: job.id }))
            const at = yield* Clock.currentTimeMillis
            yield* (yield* JobQueue).retryAt(job, at + options.backoffMs(job.failures + 1), { failure: true, clearCheckpoint: false })
          }).pipe(Effect.catchCause((again) => Effect.logError("could not hand the job back; its lease will expire", again)))
    ),
    Effect.onInterrupt(() =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        yield* (yield* JobQueue).retryAt(job, at, { failure: false, clearCheckpoint: false })
      }).pipe(Effect.catchCause(() => Effect.void))
    ),
    Effect.withSpan("processJob", { attributes: { job: job.id, kind: job.kind } })
  )
}
