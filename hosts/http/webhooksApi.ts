import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { EventList, eventSchemas } from "../../domain/contract/events.ts"
import { requestParseOptions } from "../../domain/contract/postRequest.ts"
import * as W from "../../domain/contract/webhook.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

// Webhook endpoints and the event feed, and the events as the OpenAPI document's webhooks.

const e = apiErrors
const Str = Schema.String
const opt = Schema.optional
const id = { id: Str }

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
