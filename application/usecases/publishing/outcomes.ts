import { Data } from "effect"
import type { Post, Target, TargetError } from "../../../domain/post.ts"
import { withTargets } from "../../../domain/post.ts"

/** Another worker leased the job since (our lease expired): stop writing, the new owner recovers. */
export class LeaseLost extends Data.TaggedError("LeaseLost")<{}> {}

/** The target (or first comment) fails for good with this error. */
export class FinalFailure extends Data.TaggedError("FinalFailure")<{ readonly error: TargetError }> {}

/**
 * Try again later. `clearCheckpoint` when the network said for certain that nothing was published;
 * `countsAsFailure` false when waiting is expected (throttling, media still processing), so it never
 * uses up the retries.
 */
export class RetryLater extends Data.TaggedError("RetryLater")<{
  readonly error: TargetError
  readonly retryAfterMs: number | undefined
  readonly clearCheckpoint: boolean
  readonly countsAsFailure: boolean
}> {}

/** A job's post with the job's target in it. */
export interface Loaded {
  readonly post: Post
  readonly target: Target
}

/** The post with one target replaced and its status derived again. */
export const replaceTarget = (post: Post, target: Target, at: number): Post =>
  withTargets(
    post,
    post.targets.map((t) => (t.accountId === target.accountId ? target : t)),
    at
  )
