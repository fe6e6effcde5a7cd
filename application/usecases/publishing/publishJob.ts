import { Clock, Effect, Option } from "effect"
import type { Post, Target } from "../../../domain/post.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import type { PublishRequest } from "../../ports/Publishers.ts"
import { mediaFor, networkFor, publishStep } from "./network.ts"
import type { PipelineOptions } from "./options.ts"
import { loadTarget, type Loaded, writeTarget } from "./postTx.ts"

/**
 * The target to publish; none (and the job done) when there is nothing to do: the post was cancelled
 * or removed, or the target already finished. A plain read: every write re-reads under the post's lock.
 */
const live = Effect.fnUntraced(function* (job: LeasedJob) {
  const loaded = Option.filter(yield* loadTarget(job), ({ post, target }) =>
    post.deletedAt === null && (target.status === "scheduled" || target.status === "publishing"))
  if (Option.isNone(loaded)) yield* (yield* JobQueue).complete(job)
  return loaded
})

/** scheduled -> publishing (the target is in flight); anything else stays as it is. */
export const inFlight = ({ target }: Loaded): Target => (target.status === "scheduled" ? { ...target, status: "publishing" } : target)

/** Marks the target publishing if its network call is still running after `markPublishingAfterMs`. */
const markWhenSlow = (job: LeasedJob, options: PipelineOptions) =>
  Effect.gen(function* () {
    yield* Effect.sleep(options.markPublishingAfterMs)
    const at = yield* Clock.currentTimeMillis
    yield* writeTarget(job, at, (yield* JobQueue).extend(job, at + options.leaseMs), inFlight)
  }).pipe(Effect.catchTag("LeaseLost", () => Effect.void))

/** Step 0 is the post itself; step n is thread reply n, replying to the previous one. */
const requestFor = (base: PublishRequest, post: Post, target: Target, step: number): PublishRequest => {
  if (step === 0) return base
  const rootId = target.externalId!
  const parentId = step === 1 ? rootId : target.thread.find((r) => r.index === step - 2)!.externalId
  return { ...base, content: post.thread[step - 1], media: [], poll: null, cover: null, coverMedia: null, tiktokAiGenerated: false, replyTo: { rootId, parentId } }
}

const isRecorded = (target: Target, step: number) =>
  step === 0 ? target.externalId !== null : target.thread.some((r) => r.index === step - 1)

/** What the network answered for `step`, written on the target; the last step also finishes it. */
export const recorded = (t: Target, step: number, published: { externalId: string; url: string | null }, at: number, last: boolean, job: LeasedJob): Target => {
  const next: Target = step === 0
    ? { ...t, externalId: published.externalId, url: published.url, publishedAt: at }
    : { ...t, thread: [...t.thread.filter((r) => r.index !== step - 1), { index: step - 1, externalId: published.externalId, url: published.url }].sort((a, b) => a.index - b.index) }
  return last ? { ...next, status: "published", error: null, attempts: t.attempts + job.attempts } : { ...next, status: "publishing" }
}

/**
 * A publish job: the post, then its thread replies in order, each recorded on the target before the
 * next is sent. The last record completes the job and, when the post has a first comment, enqueues
 * it `firstCommentDelayMs` later, all in one transaction.
 */
export const runPublishJob = Effect.fnUntraced(function* (job: LeasedJob, options: PipelineOptions) {
  const began = yield* live(job)
  if (Option.isNone(began)) return
  const post = began.value.post
  let target = began.value.target
  const { account, publisher } = yield* networkFor(job)
  const { media, coverMedia } = yield* mediaFor(post)
  const queue = yield* JobQueue
  const crypto = yield* Crypto
  const base: PublishRequest = {
    account, postId: post.id, content: post.content, media, poll: post.poll, cover: post.cover, coverMedia,
    tiktokAiGenerated: post.tiktokAiGenerated, replyTo: null
  }
  const steps = Array.from({ length: 1 + post.thread.length }, (_, i) => i)
  const todo = steps.filter((step) => !isRecorded(target, step))
  const lastStep = todo.length === 0 ? null : todo[todo.length - 1]
  const firstCommentJob = (at: number) => (before: Loaded) =>
    post.firstComment !== null && before.target.firstComment?.status === "pending"
      ? Effect.flatMap(crypto.id("job"), (id) =>
          queue.enqueue([{ id, kind: "first_comment", workspaceId: job.workspaceId, postId: job.postId, accountId: job.accountId, runAt: at + options.firstCommentDelayMs, attempts: 0 }]))
      : Effect.void
  if (lastStep === null) {
    // Everything was recorded by an earlier attempt that stopped just before finishing.
    const at = yield* Clock.currentTimeMillis
    yield* writeTarget(job, at, queue.complete(job), ({ target: t }) => ({ ...t, status: "published", error: null, attempts: t.attempts + job.attempts }), firstCommentJob(at))
    return
  }
  yield* Effect.forkScoped(markWhenSlow(job, options))
  for (const step of todo) {
    const published = yield* publishStep(job, step, requestFor(base, post, target, step), publisher, options)
    const at = yield* Clock.currentTimeMillis
    const last = step === lastStep
    const written = yield* writeTarget(
      job, at,
      last ? queue.complete(job) : queue.extend(job, at + options.leaseMs),
      ({ target: t }) => recorded(t, step, published, at, last, job),
      last ? firstCommentJob(at) : undefined
    )
    if (Option.isNone(written)) return
    target = written.value.targets.find((t) => t.accountId === job.accountId) ?? recorded(target, step, published, at, last, job)
  }
})
