import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DryRunResult } from "../../domain/contract/dryRun.ts"
import { CreatePostRequest, requestParseOptions } from "../../domain/contract/postRequest.ts"
import { apiErrors } from "./errors.ts"
import * as S from "./schemas.ts"
import { AppGroup } from "./appApi.ts"
import { MediaGroup } from "./mediaApi.ts"
import { Authentication } from "./security.ts"
import { UndeclaredErrors } from "./undeclaredErrors.ts"
import { EventsGroup, WebhooksGroup } from "./webhooksApi.ts"
import { addWebhooks } from "./webhooksOpenApi.ts"

const e = apiErrors
const common = [400, 401, 403, 404, 409]
const id = { id: Schema.String }

export class SignupGroup extends HttpApiGroup.make("signup")
  .add(
    HttpApiEndpoint.post("signup", "/signup", {
      payload: S.SignUpBody,
      success: [S.SignUpResponse.pipe(HttpApiSchema.status(201)), S.SignUpResponse.pipe(HttpApiSchema.status(202))],
      error: e(400, 403, 429, 503)
    })
  )
  .annotate(OpenApi.Description, "Create a Free workspace and an asks-first key for a human owner. No authentication.") {}

export class ClaimGroup extends HttpApiGroup.make("claim")
  .add(HttpApiEndpoint.post("claimLink", "/claim-link", { success: S.ClaimLinkResponse, error: e(401, 404, 409, 429) }))
  .middleware(Authentication)
  .annotate(OpenApi.Description, "The workspace's key asks for a fresh claim e-mail to the owner's address on file.") {}

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("list", "/accounts", { success: Schema.Struct({ accounts: Schema.Array(S.AccountView) }), error: e(401) }),
    HttpApiEndpoint.get("connect", "/connect/:platform", {
      params: { platform: Schema.String },
      success: Schema.Struct({ url: Schema.String, platform: Schema.String, expiresAt: Schema.String }),
      error: e(401, 404)
    }),
    HttpApiEndpoint.delete("disconnect", "/accounts/:id", {
      params: id,
      success: Schema.Struct({ id: Schema.String, disconnected: Schema.Boolean }),
      error: e(401, 404)
    }).annotate(OpenApi.Description, "Disconnect an account: its credentials are deleted and its waiting targets fail with account_disconnected."),
    HttpApiEndpoint.get("boards", "/accounts/:id/boards", {
      params: id,
      success: Schema.Struct({ boards: Schema.Array(S.BoardView) }),
      error: e(400, 401, 404, 409, 429, 502, 503)
    }).annotate(OpenApi.Description, "The boards a Pinterest account can pin to: a post's pinterest.boardId.")
  )
  .middleware(Authentication) {}

export class PostsGroup extends HttpApiGroup.make("posts")
  .add(
    // Decoded by the schema itself: its JSON codec only documents the capped arrays (contract/postRequest.ts).
    HttpApiEndpoint.post("create", "/posts", {
      disableCodecs: true,
      payload: CreatePostRequest,
      headers: { "idempotency-key": Schema.optional(Schema.String) },
      success: [S.PostEnvelope.pipe(HttpApiSchema.status(201)), DryRunResult],
      error: e(...common, 422)
    }).annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.get("list", "/posts", {
      query: { status: Schema.optional(Schema.String), limit: Schema.optional(Schema.String), cursor: Schema.optional(Schema.String) },
      success: S.PostList,
      error: e(400, 401)
    }),
    HttpApiEndpoint.get("get", "/posts/:id", { params: id, success: S.PostEnvelope, error: e(401, 404) }),
    // Their bodies are optional (a bare POST approves or rejects), so they are read raw, not declared as payloads.
    HttpApiEndpoint.post("approve", "/posts/:id/approve", { params: id, success: S.PostEnvelope, error: e(401, 403, 404, 409) }).annotate(
      OpenApi.Description,
      'Optional body {"version": "..."} (from GET /approvals): a post changed since that version is refused with 409 post_changed, details.post being the new one.'
    ),
    HttpApiEndpoint.post("reject", "/posts/:id/reject", { params: id, success: S.Removed, error: e(400, 401, 403, 404, 409) }).annotate(
      OpenApi.Description,
      'Optional body {"reason": "..."} (at most 1000 characters): the agent reads it in the post.rejected event (GET /events?postId=...).'
    ),
    HttpApiEndpoint.post("cancel", "/posts/:id/cancel", { params: id, success: S.Removed, error: e(401, 403, 404, 409) }),
    HttpApiEndpoint.post("reschedule", "/posts/:id/reschedule", { params: id, payload: S.RescheduleBody, success: S.PostEnvelope, error: e(400, 401, 403, 404, 409) }),
    HttpApiEndpoint.post("retry", "/posts/:id/retry", { params: id, success: S.PostEnvelope, error: e(401, 403, 404, 409) }),
    HttpApiEndpoint.post("retryFirstComment", "/posts/:id/first-comment/retry", {
      params: id,
      payload: S.FirstCommentRetryBody,
      success: S.PostEnvelope,
      error: e(401, 403, 404, 409)
    }),
    HttpApiEndpoint.post("bulkApprove", "/posts/bulk-approve", { payload: S.BulkBody, success: S.BulkResult, error: e(400, 401, 403) }),
    HttpApiEndpoint.post("bulkReject", "/posts/bulk-reject", { payload: S.BulkBody, success: S.BulkResult, error: e(400, 401, 403) })
  )
  .middleware(Authentication) {}

export class KeysGroup extends HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.get("list", "/keys", { success: Schema.Struct({ keys: Schema.Array(S.KeyRecord) }), error: e(401, 403) }),
    HttpApiEndpoint.post("create", "/keys", {
      payload: S.CreateKeyBody,
      success: Schema.Struct({ apiKey: Schema.String, key: S.KeyRecord }).pipe(HttpApiSchema.status(201)),
      error: e(400, 401, 403)
    }),
    HttpApiEndpoint.post("revoke", "/keys/:id/revoke", { params: id, success: Schema.Struct({ id: Schema.String, revoked: Schema.Boolean }), error: e(400, 401, 403) })
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "API keys; a signed-in person manages them (keys get 403 approval_requires_human).") {}

export class HeraldApi extends HttpApi.make("herald")
  .add(SignupGroup)
  .add(ClaimGroup)
  .add(AccountsGroup)
  .add(MediaGroup)
  .add(PostsGroup)
  .add(KeysGroup)
  .add(WebhooksGroup)
  .add(EventsGroup)
  .add(AppGroup)
  .middleware(UndeclaredErrors)
  .prefix("/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "Herald API",
      version: "1.0.0",
      description: "Publish posts to connected social accounts. Errors use the envelope {error:{code,message,hint,retryable,details}}.",
      // Events are documented as OpenAPI webhooks: what Herald POSTs to registered endpoints.
      transform: addWebhooks
    })
  ) {}
