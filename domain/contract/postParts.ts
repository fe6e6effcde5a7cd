import { Schema } from "effect"
import { platforms } from "../platforms.ts"

// Parts of a post as it is stored and shown (the request's own, null-tolerant forms are postRequest.ts's).

/** A time as Herald shows it. */
export const Time = Schema.String.annotate({ description: "UTC, ISO 8601 with milliseconds and Z" })

export const Poll = Schema.Struct({
  options: Schema.Array(Schema.String),
  durationMinutes: Schema.Int,
  question: Schema.optional(Schema.String)
}).annotate({ identifier: "Poll" })
export type Poll = typeof Poll.Type

export const Cover = Schema.Union([
  Schema.Struct({ mediaId: Schema.String }),
  Schema.Struct({ offsetMs: Schema.Int })
]).annotate({ identifier: "Cover" })
export type Cover = typeof Cover.Type

export const PostStatus = Schema.Literals([
  "needs_approval",
  "scheduled",
  "publishing",
  "published",
  "failed"
]).annotate({
  identifier: "PostStatus",
  description: "A post's follows from its targets' own; needs_approval waits for a person in the Herald app"
})
export type PostStatus = typeof PostStatus.Type

export const CommentStatus = Schema.Literals(["pending", "publishing", "published", "failed"]).annotate({
  identifier: "CommentStatus"
})
export type CommentStatus = typeof CommentStatus.Type

/** Why a target (or its first comment) failed, as the network's answer was mapped. */
export const TargetError = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  retryable: Schema.Boolean
}).annotate({ identifier: "TargetError" })
export type TargetError = typeof TargetError.Type

export const Platform = Schema.Literals(platforms).annotate({ identifier: "Platform" })
