import { Schema } from "effect"
import { TargetError } from "../../../domain/contract/postParts.ts"
import type { Post, Target } from "../../../domain/post.ts"
import { withTargets } from "../../../domain/post.ts"

/** Another worker leased the job since (our lease expired): stop writing, the new owner recovers. */
export class LeaseLost extends Schema.TaggedError<LeaseLost>()("LeaseLost", {}) {}

/** The target (or first comment) fails for good with this error. */
export class FinalFailure extends Schema.TaggedError<FinalFailure>()("FinalFailure", { error: TargetError }) {}

/**
 * Try again later. `clearCheckpoint` when the network said for certain that nothing was published;
 * `countsAsFailure` false when waiting is expected (throttling, media still processing), so it never
 * uses up the retries.
 */
export class RetryLater extends Schema.TaggedError<RetryLater>()("RetryLater", {
  error: TargetError,
  retryAfterMs: Schema.UndefinedOr(Schema.Number),
  clearCheckpoint: Schema.Boolean,
  countsAsFailure: Schema.Boolean
}) {}

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
