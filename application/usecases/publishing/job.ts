import { Cause, Clock, Effect, Option } from "effect"
import { contentFor, type TargetContent } from "../../../domain/overrides.ts"
import type { Target, TargetError } from "../../../domain/post.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import type { PublishRequest } from "../../ports/Publishers.ts"
import { mediaFor, networkFor, publishStep, targetError } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import type { Loaded, RetryLater } from "./outcomes.ts"
import { type Hold, PublishingSteps, type TargetWrite } from "./steps.ts"
import { takeDownJob } from "./takedown.ts"

const write = (job: LeasedJob, at: number, hold: Hold, change: TargetWrite["change"], firstCommentAt?: number) =>
  Effect.flatMap(PublishingSteps, (steps) => steps.write({ job, at, hold, change, firstCommentAt }))

const complete: Hold = { _tag: "Complete" }

export const leaseLost = (job: LeasedJob) =>
  Effect.logWarning("lease lost; the new owner recovers").pipe(Effect.annotateLogs({ job: job.id }))

/** scheduled -> publishing (the target is in flight); anything else stays as it is. */
const inFlight = ({ target }: Loaded): Target =>
  target.status === "scheduled" ? { ...target, status: "publishing" } : target

/** Records a final failure on the target (or its first comment) and completes the job, together. */
const failFinally = (job: LeasedJob, error: TargetError) =>
  Effect.gen(function* () {
    const at = yield* Clock.currentTimeMillis
    yield* write(job, at, complete, ({ target }) =>
      job.kind === "publish"
        ? { ...target, status: "failed", error, attempts: target.attempts + job.attempts }
        : job.kind === "takedown"
          ? target.deletion == null
            ? target
            : { ...target, deletion: { ...target.deletion, status: "failed", error } }
          : { ...target, firstComment: { status: "failed", externalId: null, error } }
    )
    yield* Effect.logWarning("publishing failed for good").pipe(
      Effect.annotateLogs({ job: job.id, post: job.postId, code: error.code })
    )
  })

/** Bounded retries: back off (or wait what the network asked), then give up with the last error. */
const retryLater = (job: LeasedJob, options: PipelineOptions, e: RetryLater) =>
  Effect.gen(function* () {
    const failures = job.failures + (e.countsAsFailure ? 1 : 0)
    if (failures >= options.maxFailures) return yield* failFinally(job, e.error)
    const at = yield* Clock.currentTimeMillis
    // Throttling and processing wait exactly as long as the network said; failures back off.
    const wait = e.countsAsFailure
      ? Math.max(options.backoffMs(failures), e.retryAfterMs ?? 0)
      : Math.max(e.retryAfterMs ?? 0, 1000)
    // A target waiting for its retry is in flight: publishing, not scheduled.
    const hold: Hold = {
      _tag: "Retry",
      runAt: at + wait,
      options: { failure: e.countsAsFailure, clearCheckpoint: e.clearCheckpoint }
    }
    // The target says why it waits (a rate limit, media processing, a failed try): never stuck without a word.
    yield* write(job, at, hold, (loaded) =>
      job.kind === "publish" ? { ...inFlight(loaded), error: e.error } : loaded.target
    )
    yield* Effect.logInfo("publishing will retry").pipe(
      Effect.annotateLogs({ job: job.id, code: e.error.code, inMs: wait })
    )
  })

/** Marks the target publishing if its network call is still running after `markPublishingAfterMs`. */
const markWhenSlow = (job: LeasedJob, options: PipelineOptions) =>
  Effect.gen(function* () {
    yield* Effect.sleep(options.markPublishingAfterMs)
    const at = yield* Clock.currentTimeMillis
    yield* write(job, at, { _tag: "Extend", until: at + options.leaseMs }, inFlight)
  }).pipe(Effect.catchTag("LeaseLost", () => Effect.void))

/** The target as stored; none (and the job done) when there is nothing left to do for it. */
const live = Effect.fnUntraced(function* (job: LeasedJob, isLive: (loaded: Loaded) => boolean) {
  const loaded = Option.filter(yield* (yield* PublishingSteps).load(job), (l) => l.post.deletedAt === null && isLive(l))
  if (Option.isNone(loaded)) yield* write(job, yield* Clock.currentTimeMillis, complete, ({ target }) => target)
  return loaded
})

/** Step 0 is the post itself; step n is thread reply n (of the target's own thread), replying to the previous one. */
const requestFor = (base: PublishRequest, final: TargetContent, target: Target, step: number): PublishRequest => {
  if (step === 0) return base
  const rootId = target.externalId!
  const parentId = step === 1 ? rootId : target.thread.find((r) => r.index === step - 2)!.externalId
  return {
    ...base,
    content: final.thread[step - 1],
    media: [],
    poll: null,
    cover: null,
    coverMedia: null,
    tiktokAiGenerated: false,
    options: undefined,
    replyTo: { rootId, parentId }
  }
}

const isRecorded = (target: Target, step: number) =>
  step === 0 ? target.externalId !== null : target.thread.some((r) => r.index === step - 1)

/** What the network answered for `step`, written on the target; the last step also finishes it. */
const recorded = (
  t: Target,
  step: number,
  published: { externalId: string; url: string | null },
  at: number,
  last: boolean,
  job: LeasedJob
): Target => {
  const next: Target =
    step === 0
      ? { ...t, externalId: published.externalId, url: published.url, publishedAt: at }
      : {
          ...t,
          thread: [
            ...t.thread.filter((r) => r.index !== step - 1),
            { index: step - 1, externalId: published.externalId, url: published.url }
          ].sort((a, b) => a.index - b.index)
        }
  return last
    ? { ...next, status: "published", error: null, attempts: t.attempts + job.attempts }
    : { ...next, status: "publishing" }
}

/**
 * A publish job: the post, then its thread replies in order, each recorded on the target before the
 * next is sent. The last record completes the job and, when the post has a first comment, enqueues
 * it `firstCommentDelayMs` later, in the same transaction.
 */
const publishTarget = Effect.fnUntraced(function* (job: LeasedJob, options: PipelineOptions) {
  const began = yield* live(job, ({ target }) => target.status === "scheduled" || target.status === "publishing")
  if (Option.isNone(began)) return
  const post = began.value.post
  let target = began.value.target
  const { account, publisher, credentials } = yield* networkFor(job)
  // What this network gets: the post with its network's overrides applied.
  const final = contentFor(post, target.platform)
  const { media, coverMedia } = yield* mediaFor(post, final.mediaIds)
  const base: PublishRequest = {
    account,
    credentials,
    postId: post.id,
    content: final.content,
    media,
    poll: post.poll,
    // The cover is for a video: a target whose own media has none gets no cover.
    cover: media.some((m) => m.type === "video") ? post.cover : null,
    coverMedia: media.some((m) => m.type === "video") ? coverMedia : null,
    tiktokAiGenerated: post.tiktokAiGenerated,
    options: post.networkOptions,
    replyTo: null
  }
  const todo = Array.from({ length: 1 + final.thread.length }, (_, i) => i).filter((step) => !isRecorded(target, step))
  const lastStep = todo.length === 0 ? null : todo[todo.length - 1]
  if (lastStep === null) {
    // Everything was recorded by an earlier attempt that stopped just before finishing.
    const at = yield* Clock.currentTimeMillis
    yield* write(
      job,
      at,
      complete,
      ({ target: t }) => ({ ...t, status: "published", error: null, attempts: t.attempts + job.attempts }),
      at + options.firstCommentDelayMs
    )
    return
  }
  yield* Effect.forkScoped(markWhenSlow(job, options))
  for (const step of todo) {
    const published = yield* publishStep(job, step, requestFor(base, final, target, step), publisher, options)
    const at = yield* Clock.currentTimeMillis
    const last = step === lastStep
    const written = yield* write(
      job,
      at,
      last ? complete : { _tag: "Extend", until: at + options.leaseMs },
      ({ target: t }) => recorded(t, step, published, at, last, job),
      last ? at + options.firstCommentDelayMs : undefined
    )
    if (Option.isNone(written)) return
    target =
      written.value.targets.find((t) => t.accountId === job.accountId) ??
      recorded(target, step, published, at, last, job)
  }
})

/** A first-comment job: a reply to the live post from the same account, with its own status. */
const publishFirstComment = Effect.fnUntraced(function* (job: LeasedJob, options: PipelineOptions) {
  const began = yield* live(
    job,
    ({ post, target }) =>
      contentFor(post, target.platform).firstComment !== null &&
      target.externalId !== null &&
      // A target being taken down gets no comment.
      target.deletion == null &&
      (target.firstComment?.status === "pending" || target.firstComment?.status === "publishing")
  )
  if (Option.isNone(began)) return
  const { post, target } = began.value
  const firstComment = contentFor(post, target.platform).firstComment!
  const at = yield* Clock.currentTimeMillis
  yield* write(job, at, { _tag: "Extend", until: at + options.leaseMs }, ({ target: t }) =>
    t.firstComment?.status === "publishing"
      ? t
      : { ...t, firstComment: { status: "publishing", externalId: null, error: null } }
  )
  const { account, publisher, credentials } = yield* networkFor(job)
  const rootId = target.externalId!
  const published = yield* publishStep(
    job,
    0,
    {
      account,
      credentials,
      postId: post.id,
      content: firstComment,
      media: [],
      poll: null,
      cover: null,
      coverMedia: null,
      tiktokAiGenerated: false,
      replyTo: { rootId, parentId: rootId }
    },
    publisher,
    options
  )
  yield* write(job, yield* Clock.currentTimeMillis, complete, ({ target: t }) => ({
    ...t,
    firstComment: { status: "published", externalId: published.externalId, error: null }
  }))
})

/**
 * Runs one leased job to an outcome: done, retry later, or failed for good. Never fails: an
 * unexpected error (storage down, a bug) counts as a failed try with the checkpoint kept, and an
 * interruption (shutdown) hands the job back to the queue at once, checkpoint kept, for the next
 * worker to recover.
 */
export const runJob = (job: LeasedJob, options: PipelineOptions) => {
  const work =
    job.attempts > options.maxLeases
      ? failFinally(
          job,
          job.checkpoint !== null
            ? targetError("publish_outcome_unknown")
            : targetError("internal_error", `The publishing worker stopped ${job.attempts - 1} times on this job.`)
        )
      : (job.kind === "publish"
          ? publishTarget(job, options)
          : job.kind === "takedown"
            ? takeDownJob(job, options)
            : publishFirstComment(job, options)
        ).pipe(
          Effect.catchTags({
            FinalFailure: (e) => failFinally(job, e.error),
            RetryLater: (e) => retryLater(job, options, e)
          })
        )
  // The lease loop's heartbeat keeps the lease alive while the job runs (leaseLoop.ts).
  return Effect.scoped(work).pipe(
    Effect.catchTag("LeaseLost", () => leaseLost(job)),
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.gen(function* () {
            yield* Effect.logError("publishing job crashed", cause).pipe(Effect.annotateLogs({ job: job.id }))
            const at = yield* Clock.currentTimeMillis
            yield* (yield* JobQueue).retryAt(job, at + options.backoffMs(job.failures + 1), {
              failure: true,
              clearCheckpoint: false
            })
          }).pipe(
            Effect.catchCause((again) => Effect.logError("could not hand the job back; its lease will expire", again))
          )
    ),
    Effect.onInterrupt(() =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        yield* (yield* JobQueue).retryAt(job, at, { failure: false, clearCheckpoint: false })
      }).pipe(Effect.catchCause(() => Effect.void))
    ),
    Effect.withSpan("runJob", { attributes: { job: job.id, kind: job.kind } })
  )
}

/**
 * Runs leased jobs, each to its own outcome and each marked `done` (its slot freed) as it ends, all
 * at once: their storage steps share statements (PublishingSteps). Never fails.
 */
export const runJobs = (
  jobs: ReadonlyArray<LeasedJob>,
  options: PipelineOptions,
  done: (job: LeasedJob) => Effect.Effect<void>
) =>
  Effect.forEach(jobs, (job) => Effect.ensuring(runJob(job, options), done(job)), {
    concurrency: "unbounded",
    discard: true
  })
