import { Cause, Clock, Effect, Fiber, Queue } from "effect"
import type { Post, Target } from "../../../domain/post.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { type Job, JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import type { Published, Publisher, PublishRequest } from "../../ports/Publishers.ts"
import { Store } from "../../ports/Store.ts"
import { mediaFor, networkFor, prepare, send } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import { type FinalFailure, replaceTarget, type RetryLater, writeTarget } from "./postTx.ts"
import { failFinally, heartbeat, leaseLost, processJob, retryLater } from "./processJob.ts"
import { inFlight, recorded } from "./publishJob.ts"

interface Candidate {
  readonly job: LeasedJob
  readonly post: Post
}

interface Prepared {
  readonly job: LeasedJob
  readonly publisher: Publisher
  readonly request: PublishRequest
  readonly handle: string | null
}

type Sent =
  | { readonly _tag: "Sent"; readonly job: LeasedJob; readonly published: Published }
  | { readonly _tag: "Failed"; readonly job: LeasedJob; readonly error: RetryLater | FinalFailure }

/** A job the batch publishes itself: a fresh publish (no checkpoint to recover) of a post without a thread. */
const batchable = (job: LeasedJob, options: PipelineOptions) =>
  job.kind === "publish" && job.checkpoint === null && job.attempts <= options.maxLeases

const keyOf = (job: LeasedJob) => ({ workspaceId: job.workspaceId, id: job.postId })

const targetOf = (post: Post, job: LeasedJob): Target | undefined =>
  post.workspaceId === job.workspaceId ? post.targets.find((t) => t.accountId === job.accountId) : undefined

/**
 * Publishes a leased batch with the same steps and guarantees as `processJob` for each job, but
 * with one statement per step for the whole batch: one read of the posts, one write of the
 * checkpoints (each job fenced by its lease, before any network call), the network calls at once,
 * then, for each wave of answers as they arrive, one transaction holding the posts (advisory locks
 * in key order) that completes the jobs still owned, records what the network answered and
 * enqueues first comments; each job frees its worker slot once settled. Failures take the
 * one-job paths (retry later, fail for good); jobs that need more (a checkpoint to recover, a
 * thread, a first comment job) run through `processJob`. Never fails: a crash hands the jobs it
 * still holds back to the queue with a failure counted, a stop hands them back at once.
 */
const publishBatch = (jobs: ReadonlyArray<LeasedJob>, options: PipelineOptions, release: (n: number) => Effect.Effect<void>) => {
  /** Jobs this batch still answers for: a crash or stop hands exactly these back. */
  const open = new Map(jobs.map((j) => [j.id, j]))
  const close = (job: LeasedJob) => Effect.suspend((): Effect.Effect<void> => (open.delete(job.id) ? release(1) : Effect.void))

  const body = Effect.gen(function* () {
    const repo = yield* PostRepo
    const posts = new Map((yield* repo.findMany(jobs.map(keyOf))).map((p) => [p.id, p]))
    const nothingToDo: Array<LeasedJob> = []
    const oneByOne: Array<LeasedJob> = []
    const candidates: Array<Candidate> = []
    for (const job of jobs) {
      const post = posts.get(job.postId)
      const target = post === undefined ? undefined : targetOf(post, job)
      if (post === undefined || target === undefined || post.deletedAt !== null || (target.status !== "scheduled" && target.status !== "publishing"))
        nothingToDo.push(job)
      else if (post.thread.length > 0 || target.externalId !== null) oneByOne.push(job)
      else candidates.push({ job, post })
    }

    // Jobs with more to do than one call take the one-job path, alongside the batch (the batch no
    // longer answers for them; each frees its slot when done).
    for (const job of oneByOne) open.delete(job.id)
    const others = Effect.forEach(oneByOne, (job) => Effect.ensuring(processJob(job, options), release(1)), { concurrency: "unbounded", discard: true })
    yield* Effect.all([others, publishCandidates(candidates, nothingToDo)], { concurrency: "unbounded", discard: true })
  })

  const publishCandidates = (candidates: ReadonlyArray<Candidate>, nothingToDo: ReadonlyArray<LeasedJob>) => Effect.scoped(Effect.gen(function* () {
    const queue = yield* JobQueue
    const repo = yield* PostRepo
    const store = yield* Store
    const crypto = yield* Crypto

    // Cancelled, removed or already finished: the job is done (a lost lease leaves it to its owner).
    if (nothingToDo.length > 0) {
      yield* queue.completeMany(nothingToDo)
      for (const job of nothingToDo) yield* close(job)
    }

    const prepared: Array<Prepared> = []
    for (const { job, post } of candidates) {
      const ready = yield* Effect.gen(function* () {
        const { account, publisher } = yield* networkFor(job)
        const { media, coverMedia } = yield* mediaFor(post)
        const request: PublishRequest = {
          account, postId: post.id, content: post.content, media, poll: post.poll, cover: post.cover, coverMedia,
          tiktokAiGenerated: post.tiktokAiGenerated, replyTo: null
        }
        return { job, publisher, request, handle: yield* prepare(publisher, request) } satisfies Prepared
      }).pipe(
        Effect.map((p): Prepared | null => p),
        Effect.catchTags({
          FinalFailure: (e) => Effect.as(Effect.andThen(failFinally(job, e.error), close(job)), null),
          RetryLater: (e) => Effect.as(Effect.andThen(retryLater(job, options, e), close(job)), null)
        })
      )
      if (ready !== null) prepared.push(ready)
    }

    // The checkpoints, in one write, before any network call: a job whose write did not hold is not called.
    const held = yield* queue.checkpointMany(prepared.map((p) => ({ job: p.job, checkpoint: { step: 0, handle: p.handle } })))
    const calls = prepared.filter((p) => held.has(p.job.id))
    for (const p of prepared) if (!held.has(p.job.id)) yield* Effect.andThen(leaseLost(p.job), close(p.job))
    if (calls.length > 0) {
      const beat = yield* Effect.forkScoped(heartbeatAll(open, options))
      const marker = yield* Effect.forkScoped(markWhenSlow(calls.map((c) => c.job), open, options))
      const call = (c: Prepared): Effect.Effect<Sent> =>
        send(c.publisher, c.request, c.handle, options).pipe(
          Effect.map((published): Sent => ({ _tag: "Sent", job: c.job, published })),
          Effect.catchTags({
            RetryLater: (error) => Effect.succeed<Sent>({ _tag: "Failed", job: c.job, error }),
            FinalFailure: (error) => Effect.succeed<Sent>({ _tag: "Failed", job: c.job, error })
          })
        )
      if (calls.length === 1) yield* settle([yield* call(calls[0])])
      else {
        // Answers are settled in waves as they come, so a slow or hanging call holds up neither the
        // records of the others nor their worker slots.
        const answers = yield* Queue.unbounded<Sent>()
        yield* Effect.forkScoped(Effect.forEach(calls, (c) => Effect.flatMap(call(c), (answer) => Queue.offer(answers, answer)), { concurrency: "unbounded", discard: true }))
        let waiting = calls.length
        while (waiting > 0) {
          const first = yield* Queue.take(answers)
          // Let the answers of the same moment arrive, then take them all.
          yield* Effect.yieldNow
          const wave = [first, ...(yield* Queue.clear(answers))]
          waiting -= wave.length
          yield* settle(wave)
        }
      }
      yield* Fiber.interrupt(marker)
      yield* Fiber.interrupt(beat)
    }
  }))

  /** Records a wave of answers: the published ones in one transaction, failures on the one-job paths. */
  const settle = (wave: ReadonlyArray<Sent>) => Effect.gen(function* () {
    const queue = yield* JobQueue
    const repo = yield* PostRepo
    const store = yield* Store
    const crypto = yield* Crypto
    const sent = wave.flatMap((r) => (r._tag === "Sent" ? [r] : []))
    if (sent.length > 0) {
      const at = yield* Clock.currentTimeMillis
      const done = yield* store.transaction(Effect.gen(function* () {
        yield* queue.lockPosts([...new Set(sent.map((s) => s.job.postId))].sort())
        const done = yield* queue.completeMany(sent.map((s) => s.job))
        const owned = sent.filter((s) => done.has(s.job.id))
        const current = new Map((yield* repo.findMany(owned.map((s) => keyOf(s.job)))).map((p) => [p.id, p]))
        const changed = new Map<string, Post>()
        const firstComments: Array<Job> = []
        for (const { job, published } of owned) {
          const post = changed.get(job.postId) ?? current.get(job.postId)
          const target = post === undefined ? undefined : targetOf(post, job)
          if (post === undefined || target === undefined) continue
          changed.set(post.id, replaceTarget(post, recorded(target, 0, published, at, true, job), at))
          if (post.firstComment !== null && target.firstComment?.status === "pending")
            firstComments.push({
              id: yield* crypto.id("job"), kind: "first_comment", workspaceId: job.workspaceId, postId: job.postId,
              accountId: job.accountId, runAt: at + options.firstCommentDelayMs, attempts: 0
            })
        }
        yield* repo.updateMany([...changed.values()])
        if (firstComments.length > 0) yield* queue.enqueue(firstComments)
        return done
      }))
      for (const s of sent) {
        if (!done.has(s.job.id)) yield* leaseLost(s.job)
        yield* close(s.job)
      }
    }
    for (const r of wave) {
      if (r._tag !== "Failed") continue
      yield* r.error._tag === "RetryLater" ? retryLater(r.job, options, r.error) : failFinally(r.job, r.error.error)
      yield* close(r.job)
    }
  })

  return body.pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.gen(function* () {
            yield* Effect.logError("publishing batch crashed", cause).pipe(Effect.annotateLogs({ jobs: open.size }))
            const at = yield* Clock.currentTimeMillis
            const queue = yield* JobQueue
            for (const job of open.values()) yield* queue.retryAt(job, at + options.backoffMs(job.failures + 1), { failure: true, clearCheckpoint: false })
          }).pipe(Effect.catchCause((again) => Effect.logError("could not hand the jobs back; their leases will expire", again)))
    ),
    Effect.onInterrupt(() =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        const queue = yield* JobQueue
        for (const job of open.values()) yield* queue.retryAt(job, at, { failure: false, clearCheckpoint: false })
      }).pipe(Effect.catchCause(() => Effect.void))
    )
  )
}

/** Keeps the leases of the batch's open jobs alive while its network calls run. */
const heartbeatAll = (open: ReadonlyMap<string, LeasedJob>, options: PipelineOptions) =>
  Effect.gen(function* () {
    const queue = yield* JobQueue
    while (true) {
      yield* Effect.sleep(Math.max(1, Math.floor(options.leaseMs / 3)))
      const until = (yield* Clock.currentTimeMillis) + options.leaseMs
      for (const job of [...open.values()]) yield* queue.extend(job, until)
    }
  })

/** Marks the batch's targets publishing if their network calls are still running after `markPublishingAfterMs`. */
const markWhenSlow = (jobs: ReadonlyArray<LeasedJob>, open: ReadonlyMap<string, LeasedJob>, options: PipelineOptions) =>
  Effect.gen(function* () {
    yield* Effect.sleep(options.markPublishingAfterMs)
    for (const job of jobs) {
      if (!open.has(job.id)) continue
      const at = yield* Clock.currentTimeMillis
      yield* writeTarget(job, at, Effect.flatMap(JobQueue, (queue) => queue.extend(job, at + options.leaseMs)), inFlight).pipe(
        Effect.catchTag("LeaseLost", () => Effect.void)
      )
    }
  })

/**
 * Runs leased jobs to an outcome: fresh publishes together (`publishBatch`), the rest (first
 * comments, recoveries, jobs past their lease budget) one by one. Never fails.
 */
export const runJobs = (
  jobs: ReadonlyArray<LeasedJob>,
  options: PipelineOptions,
  /** Called as jobs finish (n of them), so a worker can lease again before the whole lease is done. */
  release: (n: number) => Effect.Effect<void> = () => Effect.void
) => {
  const together = jobs.filter((j) => batchable(j, options))
  const alone = jobs.filter((j) => !batchable(j, options))
  return Effect.forEach(
    [...alone.map((j) => Effect.ensuring(processJob(j, options), release(1))), ...(together.length > 0 ? [publishBatch(together, options, release)] : [])],
    (run) => run,
    { concurrency: "unbounded", discard: true }
  )
}
