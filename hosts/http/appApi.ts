import { Schema } from "effect"
import { NetworkList } from "../../domain/contract/account.ts"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { apiErrors } from "./errors.ts"
import { Poll } from "../../domain/contract/postParts.ts"
import { Post } from "../../domain/contract/post.ts"
import { DisconnectedAccount } from "../../domain/contract/account.ts"
import { requestParseOptions } from "../../domain/contract/issues.ts"
import { UpdateWorkspaceRequest } from "../../domain/contract/workspace.ts"
import { Authentication } from "./security.ts"

// What the people's app (hosts/http/pages/) reads beyond the agents' endpoints: signed-in people only.

const Str = Schema.String
const e = apiErrors

export const TextOnNetwork = Schema.Struct({
  length: Schema.Number.annotate({ description: "In the network's own units (X weighs some characters double)" }),
  limit: Schema.Number,
  fits: Schema.Boolean,
  shown: Str.annotate({ description: "The longest start of the text within the limit" }),
  rest: Str.annotate({ description: "What the cut leaves out; empty when the text fits" })
}).annotate({ identifier: "TextOnNetwork" })

export const ApprovalItem = Schema.Struct({
  post: Post,
  version: Str.annotate({
    description: "Send it back with approve: a post changed since is refused with post_changed"
  }),
  networks: Schema.Array(
    Schema.Struct({
      accountId: Str,
      platform: Str,
      accountName: Schema.NullOr(Str),
      username: Schema.NullOr(Str),
      accountStatus: Schema.NullOr(Str),
      text: TextOnNetwork,
      mediaIds: Schema.Array(Str).annotate({
        description: "The media this network gets (its override's, else the post's), in order"
      }),
      thread: Schema.Array(TextOnNetwork),
      firstComment: Schema.NullOr(TextOnNetwork),
      poll: Schema.NullOr(Poll),
      maxImages: Schema.Number
    }).annotate({ identifier: "ApprovalNetwork" })
  )
}).annotate({ identifier: "ApprovalItem" })

const WorkspaceSettings = Schema.Struct({
  workspace: Schema.Struct({
    id: Str,
    name: Str,
    plan: Str,
    ownerEmail: Str,
    locale: Schema.Literals(["en", "ja"]),
    timeZone: Str.annotate({ description: "IANA time zone the app shows times in" }),
    approvalMail: Schema.Literals(["each", "digest", "off"]).annotate({
      description: "How the owner hears of posts waiting for approval"
    })
  })
}).annotate({ identifier: "WorkspaceSettings" })

// Named, so the document and the clients generated from it call them by name.
const ApprovalList = Schema.Struct({ items: Schema.Array(ApprovalItem) }).annotate({ identifier: "ApprovalList" })
const AccountGrantList = Schema.Struct({
  grants: Schema.Array(
    Schema.Struct({ accountId: Str, endsAt: Schema.NullOr(Str) }).annotate({ identifier: "AccountGrant" })
  )
}).annotate({ identifier: "AccountGrantList" })
const Session = Schema.Struct({ id: Str, createdAt: Str, expiresAt: Str, current: Schema.Boolean }).annotate({
  identifier: "Session"
})
const SessionList = Schema.Struct({ sessions: Schema.Array(Session) }).annotate({ identifier: "SessionList" })
const RevokedSession = Schema.Struct({ id: Str, revoked: Schema.Boolean }).annotate({ identifier: "RevokedSession" })
const id = { id: Str }

export class AppGroup extends HttpApiGroup.make("app")
  .add(
    HttpApiEndpoint.get("approvals", "/approvals", {
      success: ApprovalList,
      error: e(401, 403)
    })
      .annotate(OpenApi.Summary, "List the posts waiting for approval")
      .annotate(
        OpenApi.Description,
        "The posts waiting for approval, oldest first, each as every target network will show it, with the version to approve."
      ),
    HttpApiEndpoint.get("networks", "/networks", {
      success: NetworkList,
      error: e(401)
    })
      .annotate(OpenApi.Summary, "List the networks this Herald connects")
      .annotate(OpenApi.Description, "The networks this Herald connects: GET /connect/{platform} for each."),
    HttpApiEndpoint.get("accountGrants", "/account-grants", {
      success: AccountGrantList,
      error: e(401, 403)
    })
      .annotate(OpenApi.Summary, "List when each account's grant ends")
      .annotate(
        OpenApi.Description,
        "When each account's grant ends unless reconnected; null when it is renewed for as long as the person allows."
      ),
    HttpApiEndpoint.post("disconnect", "/accounts/:id/disconnect", {
      params: id,
      success: DisconnectedAccount,
      error: e(401, 404)
    }).annotate(OpenApi.Summary, "Disconnect an account (people's app)"),
    HttpApiEndpoint.get("workspace", "/workspace", { success: WorkspaceSettings, error: e(401, 403) }).annotate(
      OpenApi.Summary,
      "Get the workspace's settings"
    ),
    HttpApiEndpoint.patch("updateWorkspace", "/workspace", {
      payload: UpdateWorkspaceRequest,
      success: WorkspaceSettings,
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Change the workspace's settings")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.get("sessions", "/sessions", {
      success: SessionList,
      error: e(401, 403)
    }).annotate(OpenApi.Summary, "List the person's sessions"),
    HttpApiEndpoint.post("revokeSession", "/sessions/:id/revoke", {
      params: id,
      success: RevokedSession,
      error: e(400, 401, 403)
    }).annotate(OpenApi.Summary, "Sign a session out")
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "The people's app: a signed-in person's queue, sessions and workspace settings (keys get 403 approval_requires_human)."
  ) {}
