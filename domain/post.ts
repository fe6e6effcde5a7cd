import type { Creator } from "./apiKey.ts"
import type { Platform } from "./platforms.ts"
import type { Overrides } from "./overrides.ts"
import type { NetworkOptions } from "./contract/postRequest.ts"
import type { Cover, Poll, PostStatus } from "./contract/postParts.ts"

export type { Cover, Poll, PostStatus } from "./contract/postParts.ts"
export type TargetStatus = PostStatus
export type CommentStatus = "pending" | "publishing" | "published" | "failed"

export interface TargetError {
  readonly code: string
  readonly message: string
  readonly retryable: boolean
}

export interface FirstCommentState {
  readonly status: CommentStatus
  readonly externalId: string | null
  readonly error: TargetError | null
}

export interface ThreadReply {
  readonly index: number
  readonly externalId: string
  readonly url: string | null
}

/**
 * A take-down of a published target: asked by an asks-first key (waiting for a person), under way
 * (the network is being asked), done (the network said the post is gone), or refused by the network.
 */
export interface TargetDeletion {
  readonly status: "awaiting_approval" | "deleting" | "deleted" | "failed"
  readonly requestedBy: Creator
  readonly requestedAt: number
  /** When the network confirmed the removal; null until it has. */
  readonly deletedAt: number | null
  readonly error: TargetError | null
}

export interface Target {
  readonly accountId: string
  readonly platform: Platform
  readonly status: TargetStatus
  readonly externalId: string | null
  readonly url: string | null
  readonly publishedAt: number | null
  readonly error: TargetError | null
  readonly firstComment: FirstCommentState | null
  /** Replies of the thread already published, in order. */
  readonly thread: ReadonlyArray<ThreadReply>
  /** Publish attempts so far. */
  readonly attempts: number
  /** Its take-down, once asked for (absent or null: none). */
  readonly deletion?: TargetDeletion | null | undefined
}

export interface Post {
  readonly id: string
  readonly workspaceId: string
  readonly status: PostStatus
  readonly content: string
  readonly mediaIds: ReadonlyArray<string>
  readonly firstComment: string | null
  readonly thread: ReadonlyArray<string>
  readonly poll: Poll | null
  readonly cover: Cover | null
  readonly tiktokAiGenerated: boolean
  /** The request's tiktok, youtube, pinterest and facebook objects, for those networks' publishers. */
  readonly networkOptions: NetworkOptions
  /** Per-network content, media, thread and first comment, for the targeted networks (contentFor applies them). */
  readonly overrides: Overrides
  readonly scheduledFor: number | null
  readonly requireApproval: boolean
  readonly createdBy: Creator
  readonly createdAt: number
  readonly updatedAt: number
  readonly publishedAt: number | null
  /** Set when cancelled or rejected: the post is hidden from the API but kept for audit. */
  readonly deletedAt: number | null
  readonly deletedReason: "cancelled" | "rejected" | null
  readonly targets: ReadonlyArray<Target>
}

/** The post's status follows from its targets (DESIGN.md). */
export const derivePostStatus = (targets: ReadonlyArray<Pick<Target, "status">>): PostStatus => {
  const statuses = targets.map((t) => t.status)
  if (statuses.length === 0) return "failed"
  if (statuses.includes("needs_approval")) return "needs_approval"
  if (statuses.includes("publishing")) return "publishing"
  if (statuses.every((s) => s === "published")) return "published"
  if (statuses.includes("scheduled"))
    return statuses.includes("failed") || statuses.includes("published") ? "publishing" : "scheduled"
  // Finished: published when any target was (the failed ones say why), failed only when none was.
  return statuses.includes("published") ? "published" : "failed"
}

/** Recomputes the derived status after targets change. */
export const withTargets = (post: Post, targets: ReadonlyArray<Target>, now: number): Post => {
  const status = derivePostStatus(targets)
  const publishedAt =
    status === "published"
      ? Math.max(...targets.flatMap((t) => (t.status === "published" ? [t.publishedAt ?? now] : [])))
      : post.publishedAt
  return { ...post, targets, status, updatedAt: now, publishedAt }
}

export const isVisible = (post: Post): boolean => post.deletedAt === null

export const canApprove = (post: Post): boolean => post.status === "needs_approval"
export const canReject = (post: Post): boolean => post.status === "needs_approval"
export const canCancel = (post: Post): boolean => post.status === "needs_approval" || post.status === "scheduled"
export const canReschedule = (post: Post): boolean => post.status === "needs_approval" || post.status === "scheduled"
/** A post a person approved that has not gone out yet: its approval covers its time too. */
export const isApprovedAndWaiting = (post: Post): boolean => post.requireApproval && post.status === "scheduled"

/**
 * A key changed an approved post (its time, or anything else a key may change): the approval no longer
 * covers it, so it waits for a person again. A person's change keeps it approved (README "Security").
 */
export const sendsBackForApproval = (actorKind: "key" | "person", post: Post): boolean =>
  actorKind === "key" && isApprovedAndWaiting(post)

/** The post waiting for approval again: every target back to needs_approval. */
export const backToApproval = (post: Post, now: number): Post =>
  withTargets(
    post,
    post.targets.map((t) => ({ ...t, status: "needs_approval" as const })),
    now
  )
/** A finished post with failed targets (all of them, or some beside published ones) can be sent again. */
export const canRetry = (post: Post): boolean =>
  (post.status === "failed" || post.status === "published") && post.targets.some((t) => t.status === "failed")
/** An edit applies while nothing has gone out: waiting or scheduled (the same window as a reschedule). */
export const canEdit = (post: Post): boolean => post.status === "needs_approval" || post.status === "scheduled"
/** A target can be taken down once it is on the network and no longer in flight (published, or failed after the post). */
export const canTakeDown = (target: Target): boolean =>
  target.externalId !== null && (target.status === "published" || target.status === "failed")
