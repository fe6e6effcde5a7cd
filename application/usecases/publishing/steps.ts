import { Context, Effect, Exit, Layer, Option } from "effect"
import type { Post, Target } from "../../../domain/post.ts"
import type { Crypto } from "../../ports/Crypto.ts"
import { type Checkpoint, type Job, JobQueue, type LeasedJob, type RetryOptions } from "../../ports/JobQueue.ts"
import { type PostKey, PostRepo } from "../../ports/PostRepo.ts"
import { MetricsRepo, type MetricsTarget } from "../../ports/MetricsRepo.ts"
import { Store } from "../../ports/Store.ts"
import { groupCommit } from "../../groupCommit.ts"
import { firstCommentJob } from "../posts/jobs.ts"
import { EventOutbox } from "../../ports/EventOutbox.ts"
import { contentFor } from "../../../domain/overrides.ts"
import { finalEventOf, type HeraldEvent, isFinal } from "../../../domain/events.ts"
import { postEvent, targetEvent } from "../webhooks/events.ts"
import { LeaseLost, type Loaded, replaceTarget } from "./outcomes.ts"

/** What a write does to the job's lease; the write happens only while the job still holds it. */
export type Hold =
  | { readonly _tag: "Complete" }
  | { readonly _tag: "Extend"; readonly until: number }
  | { readonly _tag: "Retry"; readonly runAt: number; readonly options: RetryOptions }

export interface TargetWrite {
  readonly job: LeasedJob
  readonly at: number
  readonly hold: Hold
  /** The target as it should be, from the target as stored now (the same object: nothing to write). */
  readonly change: (loaded: Loaded) => Target
  /** Enqueue the target's first comment, due at this time, when it is still pending. */
  readonly firstCommentAt?: number | undefined
}

/**
 * The storage steps of publishing. Every job runs them one by one; jobs running at the same moment
 * share each statement: one read for their posts, one write for their checkpoints, one transaction
 * for their results. So a job alone is a batch of one, and a busy worker pays per batch, not per job.
 */
export interface PublishingStepsShape {
  /** The job's post and target as stored now; none when either is gone. */
  readonly load: (job: LeasedJob) => Effect.Effect<Option.Option<Loaded>>
  /** Stores the checkpoint before a network call; false when the lease was lost. */
  readonly checkpoint: (job: LeasedJob, checkpoint: Checkpoint) => Effect.Effect<boolean>
  /**
   * In one transaction holding the post: applies the hold (failing LeaseLost when the lease has
   * passed on), re-reads the target, writes the change, and enqueues the first comment if asked.
   * Returns the post as written; none when the post or its target is gone.
   */
  readonly write: (write: TargetWrite) => Effect.Effect<Option.Option<Post>, LeaseLost>
}

export class PublishingSteps extends Context.Service<PublishingSteps, PublishingStepsShape>()(
  "herald/publishing/PublishingSteps"
) {}

const keyOf = (job: Job): PostKey => ({ workspaceId: job.workspaceId, id: job.postId })

const targetOf = (post: Post, job: Job): Target | undefined =>
  post.workspaceId === job.workspaceId ? post.targets.find((t) => t.accountId === job.accountId) : undefined

/** Builds the batched steps on the ports in context. */
export const make = Effect.gen(function* () {
  const services = yield* Effect.context<JobQueue | PostRepo | Store | Crypto | EventOutbox>()
  const queue = Context.get(services, JobQueue)
  const repo = Context.get(services, PostRepo)
  const store = Context.get(services, Store)

  const load = groupCommit((jobs: ReadonlyArray<LeasedJob>) =>
    Effect.map(repo.findMany(jobs.map(keyOf)), (found) => {
      const posts = new Map(found.map((p) => [p.id, p]))
      return jobs.map((job) => {
        const post = posts.get(job.postId)
        const target = post === undefined ? undefined : targetOf(post, job)
        return Exit.succeed(
          post !== undefined && target !== undefined ? Option.some<Loaded>({ post, target }) : Option.none<Loaded>()
        )
      })
    })
  )

  const checkpoint = groupCommit(
    (entries: ReadonlyArray<{ readonly job: LeasedJob; readonly checkpoint: Checkpoint }>) =>
      Effect.map(queue.checkpointMany(entries), (held) => entries.map((e) => Exit.succeed(held.has(e.job.id))))
  )

  const write = groupCommit((writes: ReadonlyArray<TargetWrite>) =>
    store.transaction(writeAll(writes)).pipe(Effect.provideContext(services))
  )

  return {
    load,
    checkpoint: (job, cp) => checkpoint({ job, checkpoint: cp }),
    write
  } satisfies PublishingStepsShape
})

/** The events a target's change reports: published or failed, for the target, its first comment or its take-down. */
const targetEvents = (post: Post, before: Target, after: Target, at: number) =>
  Effect.gen(function* () {
    const events: Array<HeraldEvent> = []
    if (after.status !== before.status && (after.status === "published" || after.status === "failed"))
      events.push(
        yield* targetEvent(after.status === "published" ? "target.published" : "target.failed", post, after, at)
      )
    const comment = after.firstComment?.status
    if (comment !== before.firstComment?.status && (comment === "published" || comment === "failed"))
      events.push(
        yield* targetEvent(
          comment === "published" ? "first_comment.published" : "first_comment.failed",
          post,
          after,
          at
        )
      )
    const deletion = after.deletion?.status
    if (deletion !== before.deletion?.status && (deletion === "deleted" || deletion === "failed"))
      events.push(
        yield* targetEvent(deletion === "deleted" ? "target.deleted" : "target.deletion_failed", post, after, at)
      )
    return events
  })

/**
 * The writes of one batch, in one transaction: posts locked in id order, holds applied, targets
 * changed, and the events of those changes written with them (a post's final event after its targets').
 */
const writeAll = (writes: ReadonlyArray<TargetWrite>) =>
  Effect.gen(function* () {
    const queue = yield* JobQueue
    const repo = yield* PostRepo
    yield* queue.lockPosts([...new Set(writes.map((w) => w.job.postId))].sort())
    const completing = writes.filter((w) => w.hold._tag === "Complete").map((w) => w.job)
    const completed = completing.length > 0 ? yield* queue.completeMany(completing) : new Set<string>()
    const held: Array<boolean> = []
    for (const { job, hold } of writes) {
      held.push(
        hold._tag === "Complete"
          ? completed.has(job.id)
          : hold._tag === "Extend"
            ? yield* queue.extend(job, hold.until)
            : yield* queue.retryAt(job, hold.runAt, hold.options)
      )
    }
    const posts = new Map(
      (yield* repo.findMany(writes.filter((_, i) => held[i]).map((w) => keyOf(w.job)))).map((p) => [p.id, p])
    )
    const changed = new Map<string, Post>()
    const followUps: Array<Job> = []
    const events: Array<HeraldEvent> = []
    const measured: Array<MetricsTarget> = []
    const lastAt = new Map<string, number>()
    const results: Array<Exit.Exit<Option.Option<Post>, LeaseLost>> = []
    for (const [i, write] of writes.entries()) {
      if (!held[i]) {
        results.push(Exit.fail(new LeaseLost()))
        continue
      }
      const post = changed.get(write.job.postId) ?? posts.get(write.job.postId)
      const target = post === undefined ? undefined : targetOf(post, write.job)
      if (post === undefined || target === undefined) {
        results.push(Exit.succeed(Option.none()))
        continue
      }
      const next = write.change({ post, target })
      const after = next === target ? post : replaceTarget(post, next, write.at)
      if (after !== post) {
        changed.set(post.id, after)
        lastAt.set(post.id, write.at)
        events.push(...(yield* targetEvents(after, target, next, write.at)))
        if (next.status === "published" && target.status !== "published" && next.externalId !== null)
          measured.push({
            workspaceId: post.workspaceId,
            postId: post.id,
            accountId: next.accountId,
            platform: next.platform,
            externalId: next.externalId,
            publishedAt: next.publishedAt ?? write.at
          })
      }
      if (
        write.firstCommentAt !== undefined &&
        contentFor(post, target.platform).firstComment !== null &&
        target.firstComment?.status === "pending"
      )
        followUps.push(yield* firstCommentJob(post, target.accountId, write.firstCommentAt))
      results.push(Exit.succeed(Option.some(after)))
    }
    if (changed.size > 0) yield* repo.updateMany([...changed.values()])
    if (followUps.length > 0) yield* queue.enqueue(followUps)
    for (const after of changed.values()) {
      const final = finalEventOf(after)
      if (final !== null && !isFinal(posts.get(after.id)!.status))
        events.push(yield* postEvent(final, after, lastAt.get(after.id)!))
    }
    if (events.length > 0) yield* (yield* EventOutbox).append(events)
    // Its figures are read from an hour after publishing, in the same transaction (hosts without a MetricsRepo read none).
    const metrics = yield* Effect.serviceOption(MetricsRepo)
    if (measured.length > 0 && Option.isSome(metrics)) yield* metrics.value.schedule(measured)
    return results
  })

export const layer = Layer.effect(PublishingSteps)(make)
