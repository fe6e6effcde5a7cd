import { Schema } from "effect"
import type { Post, PostStatus } from "./post.ts"

/** Every event Herald reports, in the order a reader meets them in the docs. */
export const eventTypes = [
  "post.created",
  "post.needs_approval",
  "post.approved",
  "post.rejected",
  "post.cancelled",
  "post.rescheduled",
  "post.published",
  "post.partially_published",
  "post.failed",
  "target.published",
  "target.failed",
  "first_comment.published",
  "first_comment.failed",
  "account.connected",
  "account.needs_reconnection",
  "account.disconnected",
  "workspace.claimed",
  "usage.limit_reached"
] as const

export type EventType = (typeof eventTypes)[number]

/** Sent only by POST /webhooks/{id}/test, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test"

export const isEventType = (value: string): value is EventType => (eventTypes as ReadonlyArray<string>).includes(value)

export type ResourceKind = "post" | "account" | "workspace" | "webhook"

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
export const finalEventOf = (post: Pick<Post, "status" | "targets">): EventType | null => {
  if (post.status === "published") return "post.published"
  if (post.status !== "failed") return null
  return post.targets.some((t) => t.status === "published") ? "post.partially_published" : "post.failed"
}

export const isFinal = (status: PostStatus): boolean => status === "published" || status === "failed"

// Wire shapes. Each event body is the envelope with its type's `data`; they are documented in the
// OpenAPI document as webhooks (and GET /events returns the same objects).

const Str = Schema.String
const Time = Str.annotate({ description: "UTC, ISO 8601 with milliseconds and Z" })
const TargetError = Schema.NullOr(Schema.Struct({ code: Str, message: Str, retryable: Schema.Boolean }))

export const EventTarget = Schema.Struct({
  accountId: Str,
  platform: Str,
  status: Schema.Literals(["needs_approval", "scheduled", "publishing", "published", "failed"]),
  externalId: Schema.NullOr(Str),
  url: Schema.NullOr(Str),
  publishedAt: Schema.NullOr(Time),
  error: TargetError,
  firstComment: Schema.NullOr(Schema.Struct({ status: Schema.Literals(["pending", "publishing", "published", "failed"]), externalId: Schema.NullOr(Str), error: TargetError })),
  thread: Schema.Array(Schema.Struct({ index: Schema.Number, externalId: Str, url: Schema.NullOr(Str) }))
}).annotate({ identifier: "EventTarget" })

const Poll = Schema.Struct({ options: Schema.Array(Str), durationMinutes: Schema.Number, question: Schema.optional(Str) })
const Cover = Schema.Union([Schema.Struct({ mediaId: Str }), Schema.Struct({ offsetMs: Schema.Number })])

export const EventPost = Schema.Struct({
  id: Str,
  status: Schema.Literals(["needs_approval", "scheduled", "publishing", "published", "failed"]),
  content: Str,
  mediaIds: Schema.Array(Str),
  firstComment: Schema.NullOr(Str),
  thread: Schema.Array(Str),
  poll: Schema.NullOr(Poll),
  cover: Schema.NullOr(Cover),
  tiktokAiGenerated: Schema.Boolean,
  scheduledFor: Schema.NullOr(Time),
  requireApproval: Schema.Boolean,
  createdBy: Schema.Struct({ kind: Schema.Literals(["key", "person"]), id: Str, name: Str }),
  createdAt: Time,
  updatedAt: Time,
  publishedAt: Schema.NullOr(Time),
  targets: Schema.Array(EventTarget)
}).annotate({ identifier: "EventPost", description: "The post as GET /posts/{id} showed it when the event happened" })

export const EventAccount = Schema.Struct({
  id: Str,
  platform: Str,
  name: Str,
  username: Str,
  avatarUrl: Schema.NullOr(Str),
  status: Schema.Literals(["connected", "needs_reconnection"]),
  connectedAt: Time
}).annotate({ identifier: "EventAccount" })

const PostData = Schema.Struct({ post: EventPost })
const RescheduledData = Schema.Struct({ post: EventPost, previousScheduledFor: Schema.NullOr(Time) })
const TargetData = Schema.Struct({ postId: Str, target: EventTarget })
const AccountData = Schema.Struct({ account: EventAccount })
const WorkspaceData = Schema.Struct({ workspace: Schema.Struct({ id: Str, name: Str, plan: Str, claimed: Schema.Boolean }) })
const UsageData = Schema.Struct({ month: Str.annotate({ description: "YYYY-MM, UTC" }), used: Schema.Number, limit: Schema.Number, plan: Str })
const TestData = Schema.Struct({ webhookId: Str, message: Str })

const dataOf = {
  "post.created": PostData,
  "post.needs_approval": PostData,
  "post.approved": PostData,
  "post.rejected": PostData,
  "post.cancelled": PostData,
  "post.rescheduled": RescheduledData,
  "post.published": PostData,
  "post.partially_published": PostData,
  "post.failed": PostData,
  "target.published": TargetData,
  "target.failed": TargetData,
  "first_comment.published": TargetData,
  "first_comment.failed": TargetData,
  "account.connected": AccountData,
  "account.needs_reconnection": AccountData,
  "account.disconnected": AccountData,
  "workspace.claimed": WorkspaceData,
  "usage.limit_reached": UsageData,
  [TEST_EVENT_TYPE]: TestData
} as const

const descriptions: Record<EventType | typeof TEST_EVENT_TYPE, string> = {
  "post.created": "A post was stored (published now, scheduled, or waiting for approval).",
  "post.needs_approval": "A post waits for a person's approval.",
  "post.approved": "A person approved a post; it is scheduled or publishing.",
  "post.rejected": "A person rejected a post; it is gone from the API.",
  "post.cancelled": "A post was cancelled before it went out; it is gone from the API.",
  "post.rescheduled": "A post's scheduledFor changed.",
  "post.published": "Every target of a post was published.",
  "post.partially_published": "A post finished with some targets published and some failed.",
  "post.failed": "A post finished with every target failed.",
  "target.published": "One target (account) of a post was published.",
  "target.failed": "One target of a post failed for good.",
  "first_comment.published": "A target's first comment was published.",
  "first_comment.failed": "A target's first comment failed for good.",
  "account.connected": "An account was connected or reconnected.",
  "account.needs_reconnection": "An account's grant is gone; a person must reconnect it.",
  "account.disconnected": "An account was disconnected.",
  "workspace.claimed": "The owner claimed the workspace.",
  "usage.limit_reached": "The workspace used the last post of its monthly limit.",
  [TEST_EVENT_TYPE]: "Sent by POST /webhooks/{id}/test."
}

const identifierOf = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("") + "Event"

/** The envelope of one event type with its data: what the receiver gets as the request body. */
const envelope = <T extends keyof typeof dataOf>(type: T) =>
  Schema.Struct({
    id: Str.annotate({ description: "Stable event id; also the webhook-id header, for deduplication" }),
    type: Schema.Literal(type),
    timestamp: Time,
    workspaceId: Str,
    resource: Schema.Struct({ type: Schema.Literals(["post", "account", "workspace", "webhook"]), id: Str }),
    data: dataOf[type]
  }).annotate({ identifier: identifierOf(type), description: descriptions[type] })

/** One schema per event type (webhook.test included), by type. */
export const eventSchemas = Object.fromEntries(([...eventTypes, TEST_EVENT_TYPE] as const).map((type) => [type, envelope(type)])) as {
  readonly [T in keyof typeof dataOf]: ReturnType<typeof envelope<T>>
}

/** Any event body. */
export const EventBody = Schema.Union(Object.values(eventSchemas)).annotate({ identifier: "Event" })
export type EventBody = typeof EventBody.Type
