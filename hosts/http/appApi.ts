import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { apiErrors } from "./errors.ts"
import { Poll } from "../../domain/contract/postParts.ts"
import { Post } from "../../domain/contract/post.ts"
import { Authentication } from "./security.ts"

// What the people's app (hosts/http/pages/) reads beyond the agents' endpoints: signed-in people only.

const Str = Schema.String
const e = apiErrors

const TextOnNetwork = Schema.Struct({
  length: Schema.Number.annotate({ description: "In the network's own units (X weighs some characters double)" }),
  limit: Schema.Number,
  fits: Schema.Boolean,
  shown: Str.annotate({ description: "The longest start of the text within the limit" })
})

export const ApprovalItem = Schema.Struct({
  post: Post,
  version: Str.annotate({ description: "Send it back with approve: a post changed since is refused with post_changed" }),
  networks: Schema.Array(
    Schema.Struct({
      accountId: Str,
      platform: Str,
      accountName: Schema.NullOr(Str),
      username: Schema.NullOr(Str),
      accountStatus: Schema.NullOr(Str),
      text: TextOnNetwork,
      thread: Schema.Array(TextOnNetwork),
      firstComment: Schema.NullOr(TextOnNetwork),
      poll: Schema.NullOr(Poll),
      maxImages: Schema.Number
    })
  )
}).annotate({ identifier: "ApprovalItem" })

export class AppGroup extends HttpApiGroup.make("app")
  .add(
    HttpApiEndpoint.get("approvals", "/approvals", { success: Schema.Struct({ items: Schema.Array(ApprovalItem) }), error: e(401, 403) }).annotate(
      OpenApi.Description,
      "The posts waiting for approval, oldest first, each as every target network will show it, with the version to approve."
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "The people's app: a signed-in person's queue, sessions and workspace settings (keys get 403 approval_requires_human).") {}
