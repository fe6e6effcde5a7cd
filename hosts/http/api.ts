import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AccountList, BoardList, ConnectLink, DisconnectedAccount } from "../../domain/contract/account.ts"
import { DryRunResult, EditDryRunResult } from "../../domain/contract/dryRun.ts"
import { EventList, eventSchemas } from "../../domain/contract/events.ts"
import { CreatedKey, CreateKeyRequest, KeyList, RevokedKey } from "../../domain/contract/key.ts"
import {
  ApproveRequest,
  BulkRequest,
  BulkResult,
  FirstCommentRetryRequest,
  PostEnvelope,
  PostList,
  RejectRequest,
  RemovedPost,
  ReplayedPost,
  RescheduleRequest
} from "../../domain/contract/post.ts"
import { CreatePostRequest, requestParseOptions, UpdatePostRequest } from "../../domain/contract/postRequest.ts"
import { ClaimLink, SignUpRequest, SignUpResponse } from "../../domain/contract/signup.ts"
import * as W from "../../domain/contract/webhook.ts"
import { AppGroup } from "./appApi.ts"
import { ComposeGroup } from "./composeApi.ts"
import { apiErrors } from "./errors.ts"
import { MediaGroup } from "./mediaApi.ts"
import { MetricsGroup } from "./metricsApi.ts"
import { PlanningGroup } from "./planningApi.ts"
import { Authentication } from "./security.ts"
import { UndeclaredErrors } from "./undeclaredErrors.ts"

// The REST API: every endpoint with the contract's schemas (domain/contract/) as its payload,
// success and errors, so the served OpenAPI document is what the server sends.

const e = apiErrors
const common = [400, 401, 403, 404, 409]
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

export class PostsGroup extends HttpApiGroup.make("posts")
  .add(
    // Decoded by the schema itself: its JSON codec only documents the capped arrays (contract/postRequest.ts).
    HttpApiEndpoint.post("create", "/posts", {
      disableCodecs: true,
      payload: CreatePostRequest,
      headers: { "idempotency-key": Schema.optional(Schema.String) },
      success: [PostEnvelope.pipe(HttpApiSchema.status(201)), ReplayedPost, DryRunResult],
      error: e(...common, 422)
    })
      .annotate(OpenApi.Summary, "Create a post (now, scheduled, or a dry run)")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.get("list", "/posts", {
      query: { status: opt(Str), limit: opt(Str), cursor: opt(Str) },
      success: PostList,
      error: e(400, 401)
    }).annotate(OpenApi.Summary, "List posts, newest first"),
    HttpApiEndpoint.get("get", "/posts/:id", { params: id, success: PostEnvelope, error: e(401, 404) }).annotate(
      OpenApi.Summary,
      "Get a post"
    ),
    HttpApiEndpoint.patch("update", "/posts/:id", {
      disableCodecs: true,
      params: id,
      payload: UpdatePostRequest,
      success: [PostEnvelope, EditDryRunResult],
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Edit a post before it goes out")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        "Changes a post in needs_approval or scheduled (content, media, thread, first comment, poll, cover, per-network options and overrides, accounts), checked by the create's rules. A key edits only its own posts (403 edit_not_own_post); a key's edit of an approved post sends it back to needs_approval; a person's keeps it approved. A post publishing or out answers 409 post_not_editable. dryRun: true answers what would change, per target. Nothing is sent to a network."
      ),
    HttpApiEndpoint.delete("takeDownTarget", "/posts/:id/targets/:accountId", {
      params: { id: Str, accountId: Str },
      success: PostEnvelope.pipe(HttpApiSchema.status(202)),
      error: e(401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Take a published target down from its network")
      .annotate(
        OpenApi.Description,
        "Removes the post from the account's network, with its thread and first comment, where the network's API allows (409 unpublish_unsupported names the network: Instagram, TikTok). Answers 202 at once: target.deletion says deleting, then deleted once the network confirmed (target.deleted event), or failed with why. Asking again is harmless. A key takes down only its own posts; an asks-first key's request waits for a person (awaiting_approval), whose own DELETE of the target confirms it."
      ),
    HttpApiEndpoint.delete("takeDownPost", "/posts/:id/targets", {
      params: id,
      success: PostEnvelope.pipe(HttpApiSchema.status(202)),
      error: e(401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Take every published target of a post down")
      .annotate(
        OpenApi.Description,
        "DELETE /posts/{id}/targets/{accountId} for each target on a network, all or none: when one of their networks cannot remove posts, nothing is asked and 409 unpublish_unsupported names it."
      ),
    // Their bodies are optional: an empty body decodes as null, so a bare POST approves or rejects.
    HttpApiEndpoint.post("approve", "/posts/:id/approve", {
      params: id,
      payload: [ApproveRequest, Schema.Null],
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Approve a post waiting for approval")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        'Optional body {"version": "..."} (from GET /approvals): a post changed since that version is refused with 409 post_changed, details.post being the new one.'
      ),
    HttpApiEndpoint.post("reject", "/posts/:id/reject", {
      params: id,
      payload: [RejectRequest, Schema.Null],
      success: RemovedPost,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Reject a post waiting for approval")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
      .annotate(
        OpenApi.Description,
        'Optional body {"reason": "..."} (at most 1000 characters): the agent reads it in the post.rejected event (GET /events?postId=...).'
      ),
    HttpApiEndpoint.post("cancel", "/posts/:id/cancel", {
      params: id,
      success: RemovedPost,
      error: e(401, 403, 404, 409)
    }).annotate(OpenApi.Summary, "Cancel a waiting or scheduled post"),
    HttpApiEndpoint.post("reschedule", "/posts/:id/reschedule", {
      params: id,
      payload: RescheduleRequest,
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Move a post to another time")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("retry", "/posts/:id/retry", {
      params: id,
      success: PostEnvelope,
      error: e(401, 403, 404, 409)
    }).annotate(OpenApi.Summary, "Retry a failed post"),
    HttpApiEndpoint.post("retryFirstComment", "/posts/:id/first-comment/retry", {
      params: id,
      payload: FirstCommentRetryRequest,
      success: PostEnvelope,
      error: e(400, 401, 403, 404, 409)
    })
      .annotate(OpenApi.Summary, "Retry a failed first comment")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("bulkApprove", "/posts/bulk-approve", {
      payload: BulkRequest,
      success: BulkResult,
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Approve several posts")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.post("bulkReject", "/posts/bulk-reject", {
      payload: BulkRequest,
      success: BulkResult,
      error: e(400, 401, 403)
    })
      .annotate(OpenApi.Summary, "Reject several posts")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions)
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Posts to one or more accounts: now, scheduled or as a dry run; an asks-first key's posts wait for a person's approval."
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

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks", {
      payload: W.CreateWebhookRequest,
      success: W.CreatedWebhook.pipe(HttpApiSchema.status(201)),
      error: e(400, 401, 409)
    })
      .annotate(OpenApi.Summary, "Register a webhook endpoint")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.get("list", "/webhooks", { success: W.WebhookList, error: e(401) }).annotate(
      OpenApi.Summary,
      "List webhook endpoints"
    ),
    HttpApiEndpoint.get("get", "/webhooks/:id", {
      params: id,
      success: W.WebhookEnvelope,
      error: e(401, 404)
    }).annotate(OpenApi.Summary, "Get a webhook endpoint"),
    HttpApiEndpoint.patch("update", "/webhooks/:id", {
      params: id,
      payload: W.UpdateWebhookRequest,
      success: W.WebhookEnvelope,
      error: e(400, 401, 404)
    })
      .annotate(OpenApi.Summary, "Change a webhook endpoint")
      .annotate(HttpApi.PayloadParseOptions, requestParseOptions),
    HttpApiEndpoint.delete("remove", "/webhooks/:id", {
      params: id,
      success: W.DeletedWebhook,
      error: e(401, 404)
    }).annotate(OpenApi.Summary, "Delete a webhook endpoint"),
    HttpApiEndpoint.post("test", "/webhooks/:id/test", {
      params: id,
      success: W.DeliveryEnvelope,
      error: e(401, 404)
    })
      .annotate(OpenApi.Summary, "Send a test event to a webhook endpoint")
      .annotate(
        OpenApi.Description,
        "Sends a webhook.test event to this endpoint now and answers with the delivery: the receiver's status and time, or why it failed."
      ),
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries", {
      params: id,
      query: { limit: opt(Str), status: opt(Str), cursor: opt(Str) },
      success: W.DeliveryList,
      error: e(400, 401, 404)
    }).annotate(OpenApi.Summary, "List a webhook endpoint's deliveries"),
    HttpApiEndpoint.post("redeliver", "/webhooks/:id/deliveries/:deliveryId/redeliver", {
      params: { id: Str, deliveryId: Str },
      success: W.DeliveryEnvelope,
      error: e(401, 404)
    })
      .annotate(OpenApi.Summary, "Send a delivery again")
      .annotate(
        OpenApi.Description,
        "Sends the delivery again from the start of its retry schedule, with the same event id."
      )
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Webhook endpoints: each event is POSTed to every endpoint that subscribes to it, signed with the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature), retried for about three days, in order per post. Keys and signed-in people alike; every plan."
  ) {}

export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/events", {
      query: { after: opt(Str), limit: opt(Str), types: opt(Str), postId: opt(Str), waitSeconds: opt(Str) },
      success: EventList,
      error: e(400, 401)
    }).annotate(OpenApi.Summary, "List (or wait for) the workspace's events")
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "The workspace's events, oldest first, the same objects webhooks deliver. With waitSeconds (up to 60) the call waits for the next event: an agent without a URL learns in one call that its post was approved, rejected or published (postId=..., types=post.approved,post.rejected)."
  ) {}

/** `post.needs_approval` -> `onPostNeedsApproval`: the name a generated client gives the receiver's handler. */
const webhookOperationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}`

/**
 * Adds the events to an OpenAPI document as webhooks (OpenAPI 3.1): one entry per event type, the
 * request Herald POSTs, its schema among the components.
 */
export const addWebhooks = (spec: Record<string, any>): Record<string, any> => {
  const components = { ...(spec.components ?? {}), schemas: { ...(spec.components?.schemas ?? {}) } }
  const webhooks: Record<string, unknown> = {}
  for (const [type, schema] of Object.entries(eventSchemas)) {
    const document = JSON.parse(
      JSON.stringify(Schema.toJsonSchemaDocument(schema)).replaceAll("#/$defs/", "#/components/schemas/")
    ) as {
      schema: Record<string, unknown>
      definitions: Record<string, unknown>
    }
    Object.assign(components.schemas, document.definitions)
    webhooks[type] = {
      post: {
        operationId: webhookOperationId(type),
        summary: type,
        description: (schema.ast.annotations?.description as string | undefined) ?? type,
        parameters: [
          {
            name: "webhook-id",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "The event id: the same on every try, for deduplication"
          },
          {
            name: "webhook-timestamp",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "Seconds since the epoch when this try was signed"
          },
          {
            name: "webhook-signature",
            in: "header",
            required: true,
            schema: { type: "string" },
            description: "v1,<base64 HMAC-SHA256 of id.timestamp.body under the endpoint's secret>"
          }
        ],
        requestBody: { required: true, content: { "application/json": { schema: document.schema } } },
        responses: {
          "2XX": { description: "Received. Any other answer (or none within 10 s) is retried, for about three days." }
        }
      }
    }
  }
  return { ...spec, components, webhooks }
}

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
