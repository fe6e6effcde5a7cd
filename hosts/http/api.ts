import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AccountList, BoardList, ConnectLink, DisconnectedAccount } from "../../domain/contract/account.ts"
import { CreatedKey, CreateKeyRequest, KeyList, RevokedKey } from "../../domain/contract/key.ts"
import { requestParseOptions } from "../../domain/contract/postRequest.ts"
import { ClaimLink, SignUpRequest, SignUpResponse } from "../../domain/contract/signup.ts"
import { AppGroup } from "./appApi.ts"
import { ComposeGroup } from "./composeApi.ts"
import { apiErrors } from "./errors.ts"
import { MediaGroup } from "./mediaApi.ts"
import { MetricsGroup } from "./metricsApi.ts"
import { PlanningGroup } from "./planningApi.ts"
import { PostsGroup } from "./postsApi.ts"
import { Authentication } from "./security.ts"
import { UndeclaredErrors } from "./undeclaredErrors.ts"
import { addWebhooks, EventsGroup, WebhooksGroup } from "./webhooksApi.ts"

// The REST API: every endpoint with the contract's schemas (domain/contract/) as its payload,
// success and errors, so the served OpenAPI document is what the server sends.

const e = apiErrors
const Str = Schema.String
const opt = Schema.optional
const id = { id: Str }

export class SignupGroup extends HttpApiGroup.make("signup")
  .add(
    HttpApiEndpoint.post("signup", "/signup", {
      payload: SignUpRequest,
      success: [SignUpResponse.pipe(HttpApiSchema.status(201)), SignUpResponse.pipe(HttpApiSchema.status(202))],
      error: e(400, 403, 429, 503)
    })
      .annotate(OpenApi.Summary, "Sign up a workspace for a human owner")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
  )
  .annotate(
    OpenApi.Description,
    "Create a Free workspace and an asks-first key for a human owner. No authentication."
  ) {}

export class ClaimGroup extends HttpApiGroup.make("claim")
  .add(
    HttpApiEndpoint.post("claimLink", "/claim-link", { success: ClaimLink, error: e(401, 404, 409, 429) }).annotate(
      OpenApi.Summary,
      "Send the owner a fresh claim link"
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "The workspace's key asks for a fresh claim e-mail to the owner's address on file.") {}

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("list", "/accounts", { success: AccountList, error: e(401) }).annotate(
      OpenApi.Summary,
      "List connected accounts"
    ),
    HttpApiEndpoint.get("connect", "/connect/:platform", {
      params: { platform: Str },
      query: { instance: opt(Str) },
      success: ConnectLink,
      error: e(400, 401, 404, 503)
    })
      .annotate(OpenApi.Summary, "Get a link that connects an account")
      .annotate(
        OpenApi.Description,
        "A browser URL that connects an account of the network; Mastodon takes ?instance=<domain or URL> (the account's instance)."
      ),
    HttpApiEndpoint.delete("disconnect", "/accounts/:id", {
      params: id,
      success: DisconnectedAccount,
      error: e(401, 404)
    })
      .annotate(OpenApi.Summary, "Disconnect an account")
      .annotate(
        OpenApi.Description,
        "Disconnect an account: its credentials are deleted and its waiting targets fail with account_disconnected."
      ),
    HttpApiEndpoint.get("boards", "/accounts/:id/boards", {
      params: id,
      success: BoardList,
      error: e(400, 401, 404, 409, 429, 502, 503)
    })
      .annotate(OpenApi.Summary, "List where a Pinterest or Reddit account posts (boards, subreddits)")
      .annotate(
        OpenApi.Description,
        "The boards a Pinterest account can pin to (a post's pinterest.boardId), or the subreddits a Reddit account moderates, is an approved user of, or subscribes to (a post's reddit.subreddit)."
      )
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "The workspace's social accounts: connect one through a link a person opens, list them, disconnect them."
  ) {}

export class KeysGroup extends HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.get("list", "/keys", { success: KeyList, error: e(401, 403) }).annotate(
      OpenApi.Summary,
      "List API keys"
    ),
    HttpApiEndpoint.post("create", "/keys", {
      payload: CreateKeyRequest,
      success: CreatedKey.pipe(HttpApiSchema.status(201)),
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Create an API key")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("revoke", "/keys/:id/revoke", {
      params: id,
      success: RevokedKey,
      error: e(400, 401, 403)
    }).annotate(OpenApi.Summary, "Revoke an API key")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "API keys; a signed-in person manages them (keys get 403 approval_requires_human).") {}

export class HeraldApi extends HttpApi.make("herald")
  .add(SignupGroup)
  .add(ClaimGroup)
  .add(AccountsGroup)
  .add(MediaGroup)
  .add(PostsGroup)
  .add(PlanningGroup)
  .add(MetricsGroup)
  .add(KeysGroup)
  .add(WebhooksGroup)
  .add(EventsGroup)
  .add(AppGroup)
  .add(ComposeGroup)
  .middleware(UndeclaredErrors)
  .prefix("/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "Herald API",
      version: "1.0.0",
      description:
        "Publish posts to connected social accounts. Errors use the envelope {error:{code,message,hint,retryable,details}}.",
      // Relative to the document: every host serves the API at its own origin (HERALD_PUBLIC_URL).
      servers: [{ url: "/", description: "The Herald that serves this document" }],
      // Events are documented as OpenAPI webhooks: what Herald POSTs to registered endpoints.
      transform: addWebhooks
    })
  ) {}
