import { Schema } from "effect"
import { type EventType, eventTypes, TEST_EVENT_TYPE } from "../events.ts"
import { Account } from "./account.ts"
import { Planned, QueueMove, ScheduleView } from "./planning.ts"
import { EditChange } from "./dryRun.ts"
import { Post, Target } from "./post.ts"
import { Time } from "./postParts.ts"

// Wire shapes. Each event body is the envelope with its type's `data`; they are documented in the
// OpenAPI document as webhooks (and GET /events returns the same objects).

const Str = Schema.String

// The post (target, account) as GET /posts/{id} (GET /accounts) showed it when the event happened.
const PostData = Schema.Struct({ post: Post })
// The person's reason, when they gave one: the agent (and the app's History) read it here.
const RejectedData = Schema.Struct({
  post: Post,
  reason: Schema.optionalKey(Str.annotate({ description: "The person's reason, at most 1000 characters" }))
})
const RescheduledData = Schema.Struct({
  post: Post,
  previousScheduledFor: Schema.NullOr(Time),
  reason: Schema.optionalKey(
    Schema.Literals(["queue_reordered", "slots_changed", "queue_resumed"]).annotate({
      description: "Set when the posting queue moved the post (absent: a reschedule)"
    })
  ),
  planned: Schema.optionalKey(Planned)
})
const UpdatedData = Schema.Struct({ post: Post, changes: Schema.Array(EditChange) })
const SchedulesData = Schema.Struct({
  schedules: Schema.Array(ScheduleView),
  moved: Schema.Array(QueueMove),
  released: Schema.Array(QueueMove)
})
const QueueData = Schema.Struct({ schedule: ScheduleView, moved: Schema.Array(QueueMove) })
const TargetData = Schema.Struct({ postId: Str, target: Target })
const AccountData = Schema.Struct({ account: Account })
// The account as it was when it went: disconnected (it no longer appears in GET /accounts).
const DisconnectedAccountData = Schema.Struct({
  account: Schema.Struct({ ...Account.fields, status: Schema.Literal("disconnected") })
})
const WorkspaceData = Schema.Struct({
  workspace: Schema.Struct({ id: Str, name: Str, plan: Str, claimed: Schema.Boolean })
})
const UsageData = Schema.Struct({
  month: Str.annotate({ description: "YYYY-MM, UTC" }),
  used: Schema.Number,
  limit: Schema.Number,
  plan: Str
})
const TestData = Schema.Struct({ webhookId: Str, message: Str })

const dataOf = {
  "post.created": PostData,
  "post.needs_approval": PostData,
  "post.approved": PostData,
  "post.rejected": RejectedData,
  "post.cancelled": PostData,
  "post.rescheduled": RescheduledData,
  "post.updated": UpdatedData,
  "post.published": PostData,
  "post.partially_published": PostData,
  "post.failed": PostData,
  "target.published": TargetData,
  "target.failed": TargetData,
  "target.deletion_requested": TargetData,
  "target.deleted": TargetData,
  "target.deletion_failed": TargetData,
  "first_comment.published": TargetData,
  "first_comment.failed": TargetData,
  "account.connected": AccountData,
  "account.needs_reconnection": AccountData,
  "account.disconnected": DisconnectedAccountData,
  "workspace.claimed": WorkspaceData,
  "usage.limit_reached": UsageData,
  "schedules.updated": SchedulesData,
  "queue.paused": QueueData,
  "queue.resumed": QueueData,
  "queue.reordered": QueueData,
  [TEST_EVENT_TYPE]: TestData
} as const

const descriptions: Record<EventType | typeof TEST_EVENT_TYPE, string> = {
  "post.created": "A post was stored (published now, scheduled, or waiting for approval).",
  "post.needs_approval": "A post waits for a person's approval.",
  "post.approved": "A person approved a post; it is scheduled or publishing.",
  "post.rejected": "A person rejected a post; it is gone from the API.",
  "post.cancelled": "A post was cancelled before it went out; it is gone from the API.",
  "post.rescheduled": "A post's scheduledFor changed.",
  "post.updated": "A post was edited before it went out; changes says what each target gets differently.",
  "post.published": "Every target of a post was published.",
  "post.partially_published": "A post finished with some targets published and some failed.",
  "post.failed": "A post finished with every target failed.",
  "target.published": "One target (account) of a post was published.",
  "target.failed": "One target of a post failed for good.",
  "target.deletion_requested":
    "An asks-first key asked to take a published target down; it waits for a person, whose own DELETE /posts/{id}/targets/{accountId} confirms it.",
  "target.deleted": "A published target was taken down: the network confirmed the removal.",
  "target.deletion_failed": "The network refused to take a target down; target.deletion.error says why.",
  "first_comment.published": "A target's first comment was published.",
  "first_comment.failed": "A target's first comment failed for good.",
  "account.connected": "An account was connected or reconnected.",
  "account.needs_reconnection": "An account's grant is gone; a person must reconnect it.",
  "account.disconnected": "An account was disconnected.",
  "workspace.claimed": "The owner claimed the workspace.",
  "usage.limit_reached": "The workspace used the last post of its monthly limit.",
  "schedules.updated":
    "The posting schedules were replaced (PUT /schedules); queued posts moved or released are listed.",
  "queue.paused": "A posting queue was paused: its posts keep their order but do not go out.",
  "queue.resumed": "A posting queue resumed: its posts were laid again on the slots from now on.",
  "queue.reordered": "A posting queue's posts were put in a new order.",
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
    resource: Schema.Struct({
      type: Schema.Literals(["post", "account", "workspace", "webhook", "schedule"]),
      id: Str
    }),
    data: dataOf[type]
  }).annotate({ identifier: identifierOf(type), description: descriptions[type] })

/** One schema per event type (webhook.test included), by type. */
export const eventSchemas = Object.fromEntries(
  ([...eventTypes, TEST_EVENT_TYPE] as const).map((type) => [type, envelope(type)])
) as {
  readonly [T in keyof typeof dataOf]: ReturnType<typeof envelope<T>>
}

/** The `data` of one event type as it goes on the wire (the use cases build it so). */
export type EventData<T extends keyof typeof dataOf> = (typeof dataOf)[T]["Encoded"]

/** Any event body. */
export const EventBody = Schema.Union(Object.values(eventSchemas)).annotate({ identifier: "Event" })
export type EventBody = typeof EventBody.Type

/** GET /events: the events after a cursor, oldest first. */
export const EventList = Schema.Struct({
  events: Schema.Array(EventBody),
  nextCursor: Str.annotate({ description: "Pass as after= to get the events after these" })
}).annotate({ identifier: "EventList" })

/** MCP's wait_for_post: the post once decided (or final), or as it still is when the wait ends. */
export const PostWait = Schema.Struct({
  settled: Schema.Boolean.annotate({ description: "Whether the awaited decision (or final status) happened" }),
  status: Schema.Literals([
    "needs_approval",
    "scheduled",
    "publishing",
    "published",
    "failed",
    "cancelled",
    "rejected"
  ]),
  post: Schema.NullOr(Post).annotate({ description: "null once cancelled or rejected" })
}).annotate({ identifier: "PostWait" })
