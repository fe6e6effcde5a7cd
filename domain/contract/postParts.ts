import { Schema } from "effect"

// Parts of a post as it is stored and shown (the request's own, null-tolerant forms are postRequest.ts's).

export const Poll = Schema.Struct({
  options: Schema.Array(Schema.String),
  durationMinutes: Schema.Int,
  question: Schema.optional(Schema.String)
}).annotate({ identifier: "Poll" })
export type Poll = typeof Poll.Type

export const Cover = Schema.Union([Schema.Struct({ mediaId: Schema.String }), Schema.Struct({ offsetMs: Schema.Int })]).annotate({ identifier: "Cover" })
export type Cover = typeof Cover.Type

export const PostStatus = Schema.Literals(["needs_approval", "scheduled", "publishing", "published", "failed"]).annotate({ identifier: "PostStatus" })
export type PostStatus = typeof PostStatus.Type
