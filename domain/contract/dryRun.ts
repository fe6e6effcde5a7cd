import { Schema } from "effect"
import { Cover, Poll } from "./postParts.ts"

/** What POST /posts with `dryRun: true` answers: nothing stored, sent or counted. */
export const DryRunResult = Schema.Struct({
  dryRun: Schema.Literal(true),
  valid: Schema.Boolean.annotate({ description: "Whether the post would be accepted (false: this month's posts are used up)" }),
  warnings: Schema.Array(Schema.String),
  requireApproval: Schema.Boolean.annotate({ description: "Whether the post would wait for a person's approval" }),
  wouldPost: Schema.Struct({
    status: Schema.Literals(["needs_approval", "scheduled", "publishing"]),
    scheduledFor: Schema.NullOr(Schema.String),
    content: Schema.String,
    mediaIds: Schema.Array(Schema.String),
    firstComment: Schema.NullOr(Schema.String),
    thread: Schema.Array(Schema.String),
    poll: Schema.NullOr(Poll),
    cover: Schema.NullOr(Cover),
    tiktokAiGenerated: Schema.Boolean,
    targets: Schema.Array(Schema.Struct({ accountId: Schema.String, platform: Schema.String, username: Schema.String })),
    usage: Schema.Struct({ month: Schema.String, used: Schema.Int, limit: Schema.NullOr(Schema.Int) })
  }).annotate({ description: "The post as it would be created, with the month's usage" })
}).annotate({ identifier: "DryRunResult" })
export type DryRunResult = typeof DryRunResult.Type
