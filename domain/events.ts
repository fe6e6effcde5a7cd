import type { Post, PostStatus } from "./post.ts"

/** Every event Herald reports, in the order a reader meets them in the docs. */
export const eventTypes = [
  "post.created",
  "post.needs_approval",
  "post.approved",
  "post.rejected",
  "post.cancelled",
  "post.rescheduled",
  "post.updated",
  "post.published",
  "post.partially_published",
  "post.failed",
  "target.published",
  "target.failed",
  "target.deletion_requested",
  "target.deleted",
  "target.deletion_failed",
  "first_comment.published",
  "first_comment.failed",
  "account.connected",
  "account.needs_reconnection",
  "account.disconnected",
  "workspace.claimed",
  "usage.limit_reached",
  "schedules.updated",
  "queue.paused",
  "queue.resumed",
  "queue.reordered"
] as const

export type EventType = (typeof eventTypes)[number]

/** Sent only by POST /webhooks/{id}/test, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test"

export const isEventType = (value: string): value is EventType => (eventTypes as ReadonlyArray<string>).includes(value)

export type ResourceKind = "post" | "account" | "workspace" | "webhook" | "schedule"

/**
 * One event as stored in the outbox and sent on the wire. `body` is the JSON delivered (the
 * envelope below), fixed when the change is written: a receiver sees the resource as it was then.
 */
export interface HeraldEvent {
  readonly id: string
  readonly type: EventType | typeof TEST_EVENT_TYPE
  readonly workspaceId: string
  readonly resource: { readonly kind: ResourceKind; readonly id: string }
  /** Events with one key reach an endpoint in the order they were written (a post's, an account's). */
  readonly orderingKey: string
  readonly createdAt: number
  readonly body: string
  /** A test event goes to this endpoint only, whatever it subscribes to. */
  readonly onlyWebhookId?: string | undefined
}

/** A post's final event: all targets published, some, or none. None while the post is not final. */
export const finalEventOf = (
  post: Pick<Post, "status" | "targets">
): "post.published" | "post.partially_published" | "post.failed" | null => {
  if (post.status === "failed") return "post.failed"
  if (post.status !== "published") return null
  return post.targets.some((t) => t.status === "failed") ? "post.partially_published" : "post.published"
}

export const isFinal = (status: PostStatus): boolean => status === "published" || status === "failed"
