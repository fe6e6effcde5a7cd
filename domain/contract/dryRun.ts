import { Schema } from "effect"
import { Planned } from "./planning.ts"
import { Cover, Poll } from "./postParts.ts"
import { Overrides } from "./postRequest.ts"

/** One target of a dry run: what its network would get, and what to know about it. */
export const DryRunTarget = Schema.Struct({
  accountId: Schema.String,
  platform: Schema.String,
  username: Schema.String,
  content: Schema.String.annotate({
    description: "The text this network would get: content, or its network's override"
  }),
  mediaIds: Schema.Array(Schema.String),
  thread: Schema.Array(Schema.String),
  firstComment: Schema.NullOr(Schema.String),
  length: Schema.Struct({
    used: Schema.Int,
    limit: Schema.Int
  }).annotate({
    description:
      "The text's length as this network counts it (X: weighted, links 23; Bluesky: graphemes), and its limit"
  }),
  warnings: Schema.Array(Schema.String).annotate({
    description: "What this network would do or refuse: length, media, reconnection, the grant's end, quotas"
  })
}).annotate({ identifier: "DryRunTarget" })

/** What POST /posts with `dryRun: true` answers: nothing stored, sent or counted. */
export const DryRunResult = Schema.Struct({
  dryRun: Schema.Literal(true),
  valid: Schema.Boolean.annotate({
    description:
      "Whether the post would be accepted (false: this month's posts are used up, or an account needs reconnecting)"
  }),
  warnings: Schema.Array(Schema.String).annotate({ description: "Every warning once, the targets' included" }),
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
    overrides: Overrides,
    targets: Schema.Array(
      Schema.Struct({ accountId: Schema.String, platform: Schema.String, username: Schema.String }).annotate({
        identifier: "DryRunAccount"
      })
    ),
    usage: Schema.Struct({ month: Schema.String, used: Schema.Int, limit: Schema.NullOr(Schema.Int) })
  }).annotate({ description: "The post as it would be created, with the month's usage" }),
  targets: Schema.Array(DryRunTarget).annotate({
    description: "Each target as its network would get it, in accountIds order"
  }),
  planned: Schema.optionalKey(Planned)
}).annotate({ identifier: "DryRunResult" })
export type DryRunResult = typeof DryRunResult.Type

/** One target of an edit's dry run: what the edit would do to it. */
export const EditChange = Schema.Struct({
  accountId: Schema.String,
  platform: Schema.String,
  change: Schema.Literals(["added", "removed", "changed", "unchanged"]),
  fields: Schema.Array(Schema.String).annotate({
    description: "What this network would get differently (content, mediaIds, thread, firstComment, poll, ...)"
  })
}).annotate({ identifier: "EditChange" })

/** PATCH /posts/{id} with `dryRun: true`: the post as the edit would leave it, checked, and what would change. */
export const EditDryRunResult = Schema.Struct({
  ...DryRunResult.fields,
  changes: Schema.Array(EditChange).annotate({
    description: "Each target's change: the post's targets after the edit in order, then the removed ones"
  })
}).annotate({ identifier: "EditDryRunResult" })
export type EditDryRunResult = typeof EditDryRunResult.Type
