import { Data, Effect, Option } from "effect"
import type { Post, Target, TargetError } from "../../../domain/post.ts"
import { withTargets } from "../../../domain/post.ts"
import { JobQueue, type LeasedJob } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { Store } from "../../ports/Store.ts"

/** Another worker leased the job since (our lease expired): stop writing, the new owner recovers. */
export class LeaseLost extends Data.TaggedError("LeaseLost")<{}> {}

/** The target (or first comment) fails for good with this error. */
export class FinalFailure extends Data.TaggedError("FinalFailure")<{ readonly error: TargetError }> {}

/** Try again later. `clearCheckpoint` when the network said for certain that nothing was published. */
export class RetryLater extends Data.TaggedError("RetryLater")<{
  readonly error: TargetError
  readonly retryAfterMs: number | undefined
  readonly clearCheckpoint: boolean
}> {}

export interface Loaded {
  readonly post: Post
  readonly target: Target
}

/** Runs `body` in a transaction that holds the job's post, so writes to its other targets wait. */
export const inPostTransaction = <A, E, R>(job: LeasedJob, body: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Store, (store) => store.transaction(Effect.flatMap(JobQueue, (queue) => Effect.andThen(queue.lockPost(job.postId), body))))

/** The job's post and target as stored now; none when the post or the account's target is gone. */
export const loadTarget = Effect.fnUntraced(function* (job: LeasedJob) {
  const found = yield* (yield* PostRepo).findById(job.workspaceId, job.postId)
  if (Option.isNone(found)) return Option.none<Loaded>()
  const target = found.value.targets.find((t) => t.accountId === job.accountId)
  return target === undefined ? Option.none<Loaded>() : Option.some<Loaded>({ post: found.value, target })
})

/** The post with one target replaced and its status derived again. */
export const replaceTarget = (post: Post, target: Target, at: number): Post =>
  withTargets(post, post.targets.map((t) => (t.accountId === target.accountId ? target : t)), at)

/**
 * In one transaction holding the post: checks the lease (`hold`, failing LeaseLost), re-reads the
 * target, applies `change`, writes the post (unless `change` returned the target itself), then runs `also` (more writes that must commit with it).
 */
export const writeTarget = <E, R>(
  job: LeasedJob,
  at: number,
  hold: Effect.Effect<boolean, E, R>,
  change: (loaded: Loaded) => Target,
  also: (before: Loaded, after: Post) => Effect.Effect<void, E, R> = () => Effect.void
) =>
  inPostTransaction(job, Effect.gen(function* () {
    if (!(yield* hold)) return yield* Effect.fail(new LeaseLost())
    const loaded = yield* loadTarget(job)
    if (Option.isNone(loaded)) return Option.none<Post>()
    const target = change(loaded.value)
    // An unchanged target (e.g. already marked) costs no write.
    const post = target === loaded.value.target ? loaded.value.post : replaceTarget(loaded.value.post, target, at)
    if (post !== loaded.value.post) yield* (yield* PostRepo).update(post)
    yield* also(loaded.value, post)
    return Option.some(post)
  }))
