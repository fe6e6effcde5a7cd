import { Schema } from "effect"
import { TargetMetrics } from "./metrics.ts"
import { CommentStatus, Cover, Platform, Poll, PostStatus, TargetError, Time } from "./postParts.ts"
import { Planned, ScheduledForInput } from "./planning.ts"
import { Overrides } from "./postRequest.ts"

// A post as the API, MCP and webhook events show it, and the answers that carry it.

const Str = Schema.String
export { Platform }

/** One account of a post, with its own status. */
export const Target = Schema.Struct({
  accountId: Str,
  platform: Platform,
  status: PostStatus,
  externalId: Schema.NullOr(Str).annotate({ description: "The post's id on the network" }),
  url: Schema.NullOr(Str).annotate({ description: "Link to the published post on the network" }),
  publishedAt: Schema.NullOr(Time),
  error: Schema.NullOr(TargetError),
  firstComment: Schema.NullOr(
    Schema.Struct({ status: CommentStatus, externalId: Schema.NullOr(Str), error: Schema.NullOr(TargetError) })
  ),
  thread: Schema.Array(
    Schema.Struct({ index: Schema.Int, externalId: Str, url: Schema.NullOr(Str) }).annotate({
      identifier: "PublishedReply"
    })
  ).annotate({
    description: "Replies of the thread already published, in order"
  }),
  metrics: Schema.optionalKey(TargetMetrics).annotate({
    description: "A published target's latest figures (GET /posts/{id} only; history at /posts/{id}/metrics)"
  }),
  deletion: Schema.optionalKey(
    Schema.Struct({
      status: Schema.Literals(["awaiting_approval", "deleting", "deleted", "failed"]).annotate({
        description:
          "awaiting_approval: an asks-first key asked, a person confirms (the same DELETE); deleting: the network is being asked; deleted: the network confirmed; failed: it refused (error)"
      }),
      requestedBy: Schema.Struct({ kind: Schema.Literals(["key", "person"]), id: Str, name: Str }),
      requestedAt: Time,
      deletedAt: Schema.NullOr(Time).annotate({ description: "When the network confirmed the removal" }),
      error: Schema.NullOr(TargetError)
    }).annotate({ identifier: "TargetDeletion", description: "Set once a take-down was asked for" })
  )
}).annotate({ identifier: "Target" })
export type Target = typeof Target.Type

export const Post = Schema.Struct({
  id: Str,
  status: PostStatus,
  content: Str,
  mediaIds: Schema.Array(Str),
  firstComment: Schema.NullOr(Str),
  thread: Schema.Array(Str),
  poll: Schema.NullOr(Poll),
  cover: Schema.NullOr(Cover),
  tiktokAiGenerated: Schema.Boolean,
  overrides: Overrides,
  scheduledFor: Schema.NullOr(Time).annotate({ description: "null: publish now" }),
  requireApproval: Schema.Boolean,
  createdBy: Schema.Struct({ kind: Schema.Literals(["key", "person"]), id: Str, name: Str }),
  createdAt: Time,
  updatedAt: Time,
  publishedAt: Schema.NullOr(Time),
  targets: Schema.Array(Target)
}).annotate({ identifier: "Post" })
export type Post = typeof Post.Type

export const PostEnvelope = Schema.Struct({
  post: Post,
  planned: Schema.optionalKey(Planned)
}).annotate({ identifier: "PostEnvelope" })
export type PostEnvelope = typeof PostEnvelope.Type

/** POST /posts's answer to a retry with the same Idempotency-Key and body: the original post. */
export const ReplayedPost = Schema.Struct({ post: Post, replayed: Schema.Literal(true) }).annotate({
  identifier: "ReplayedPost"
})
export type ReplayedPost = typeof ReplayedPost.Type

export const PostList = Schema.Struct({
  posts: Schema.Array(Post),
  nextCursor: Schema.NullOr(Str).annotate({ description: "Pass as cursor= for the next page; null on the last" })
}).annotate({ identifier: "PostList" })
export type PostList = typeof PostList.Type

/** A cancelled or rejected post: gone from the API. */
export const RemovedPost = Schema.Struct({
  id: Str,
  cancelled: Schema.optional(Schema.Literal(true)),
  rejected: Schema.optional(Schema.Literal(true))
}).annotate({
  identifier: "RemovedPost"
})
export type RemovedPost = typeof RemovedPost.Type

// Approve and reject take an optional body: a bare POST approves or rejects.
export const ApproveRequest = Schema.Struct({
  version: Schema.optional(
    Str.annotate({
      description: "The version seen (GET /approvals): a post changed since is refused with 409 post_changed"
    })
  )
}).annotate({ identifier: "ApproveRequest" })
export const RejectRequest = Schema.Struct({
  reason: Schema.optional(
    Str.annotate({ description: "At most 1000 characters: the agent reads it in the post.rejected event" })
  )
}).annotate({ identifier: "RejectRequest" })
const BULK_IDS_MESSAGE = "postIds must be an array of 1-100 post ids."
export const RescheduleRequest = Schema.Struct({
  scheduledFor: ScheduledForInput.annotate({
    description:
      "The new time: ISO 8601 with a timezone offset, or a local time {local, timeZone} (timeZone required here); in the future"
  })
}).annotate({
  identifier: "RescheduleRequest"
})
export const FirstCommentRetryRequest = Schema.Struct({ accountId: Schema.optional(Str) }).annotate({
  identifier: "FirstCommentRetryRequest"
})
export const BulkRequest = Schema.Struct({
  postIds: Schema.Array(Str)
    .check(Schema.isMinLength(1, { message: BULK_IDS_MESSAGE }), Schema.isMaxLength(100, { message: BULK_IDS_MESSAGE }))
    .annotate({ description: "1-100 post ids" }),
  versions: Schema.optional(
    Schema.Record(Str, Str).annotate({ description: "bulk-approve: the version each post was seen at, by post id" })
  ),
  reason: Schema.optional(Str.annotate({ description: "bulk-reject: one reason for every post" }))
}).annotate({ identifier: "BulkRequest" })
export const BulkResult = Schema.Struct({
  results: Schema.Array(
    Schema.Struct({
      id: Str,
      ok: Schema.Boolean,
      error: Schema.NullOr(Schema.Struct({ code: Str, details: Schema.Unknown }))
    }).annotate({ identifier: "BulkOutcome" })
  )
}).annotate({ identifier: "BulkResult" })
export type BulkResult = typeof BulkResult.Type
