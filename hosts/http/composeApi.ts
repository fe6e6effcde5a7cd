import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Planned } from "../../domain/contract/planning.ts"
import { Poll } from "../../domain/contract/postParts.ts"
import { TextOnNetwork } from "./appApi.ts"
import { CreatePostRequest, requestParseOptions } from "../../domain/contract/postRequest.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

// The people's app composer: the dry run's advice for every target while a person writes.

const Str = Schema.String

const Refusal = Schema.Struct({
  code: Str.annotate({ description: "The error code POST /posts would answer" }),
  message: Str,
  details: Schema.Record(Str, Schema.Unknown).annotate({ description: "fields names what to fix" })
}).annotate({ identifier: "ComposeRefusal" })

/** How the post will read on the target's network: the approval card's view of it (GET /approvals' networks). */
const ComposePreview = Schema.Struct({
  text: TextOnNetwork,
  mediaIds: Schema.Array(Str).annotate({ description: "The media this network gets, in carousel order" }),
  thread: Schema.Array(TextOnNetwork).annotate({
    description: "The replies, numbered in order; none where the network takes no thread"
  }),
  firstComment: Schema.NullOr(TextOnNetwork),
  poll: Schema.NullOr(Poll),
  maxImages: Schema.Number
}).annotate({ identifier: "ComposePreview" })

const ComposeTarget = Schema.Struct({
  accountId: Str,
  platform: Str,
  username: Str,
  ok: Schema.Boolean.annotate({ description: "Whether this target would be accepted as written" }),
  length: Schema.Struct({ used: Schema.Int, limit: Schema.Int }).annotate({
    description: "The text's length as this network counts it, and its limit (also when over it)"
  }),
  warnings: Schema.Array(Str),
  error: Schema.NullOr(Refusal).annotate({ description: "This target's own refusal" }),
  preview: Schema.NullOr(ComposePreview)
}).annotate({ identifier: "ComposeTarget" })

export const ComposeAdvice = Schema.Struct({
  valid: Schema.Boolean,
  error: Schema.NullOr(Refusal).annotate({
    description: "The post's refusal that is no one target's (a time, a field)"
  }),
  warnings: Schema.Array(Str).annotate({ description: "The post's warnings beyond its targets' own" }),
  requireApproval: Schema.NullOr(Schema.Boolean),
  planned: Schema.NullOr(Planned),
  targets: Schema.Array(ComposeTarget)
}).annotate({ identifier: "ComposeAdvice" })

export class ComposeGroup extends HttpApiGroup.make("compose")
  .add(
    HttpApiEndpoint.post("advice", "/compose/advice", {
      disableCodecs: true,
      payload: CreatePostRequest,
      success: ComposeAdvice,
      error: apiErrors(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Advice on a post being written (people's app)")
      .annotate(
        OpenApi.Description,
        "POST /posts's dry run for the composer: each target ok, with its warnings, or its own refusal, and its length by its network's counting. Nothing is stored."
      )
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "The people's app composer (keys get 403 approval_requires_human).") {}
