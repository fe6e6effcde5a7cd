import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { EventBody, eventTypes } from "../../domain/events.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

const Str = Schema.String
const opt = Schema.optional
const e = apiErrors
const EventType = Schema.Literals(eventTypes)

export const WebhookView = Schema.Struct({
  id: Str,
  url: Str,
  eventTypes: Schema.Array(EventType).annotate({ description: "Empty: every event type" }),
  description: Str,
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Str).annotate({ description: "Set when Herald turned the endpoint off after days of failures" }),
  failingSince: Schema.NullOr(Str).annotate({ description: "Since when every delivery has failed; null when the last one went through" }),
  createdAt: Str,
  updatedAt: Str
}).annotate({ identifier: "Webhook" })

export const DeliveryView = Schema.Struct({
  id: Str,
  webhookId: Str,
  eventId: Str.annotate({ description: "The webhook-id header of every try" }),
  eventType: Str,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attempts: Schema.Number,
  createdAt: Str,
  lastAttemptAt: Schema.NullOr(Str),
  nextAttemptAt: Schema.NullOr(Str),
  responseCode: Schema.NullOr(Schema.Number),
  responseTimeMs: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Str),
  deliveredAt: Schema.NullOr(Str)
}).annotate({ identifier: "WebhookDelivery" })

const WebhookFields = {
  url: Str.annotate({ description: "A public https URL; checked after DNS resolution, at registration and at every delivery" }),
  eventTypes: opt(Schema.Array(EventType).annotate({ description: "Omit or [] for every type" })),
  description: opt(Str),
  enabled: opt(Schema.Boolean)
}

export const CreateWebhookBody = Schema.Struct(WebhookFields).annotate({ identifier: "CreateWebhookRequest" })
export const UpdateWebhookBody = Schema.Struct({ ...WebhookFields, url: opt(WebhookFields.url) }).annotate({ identifier: "UpdateWebhookRequest" })
export const WebhookEnvelope = Schema.Struct({ webhook: WebhookView })
export const CreatedWebhook = Schema.Struct({
  webhook: WebhookView,
  secret: Str.annotate({ description: "whsec_...: shown only in this answer. Verify each request's webhook-signature with it (Standard Webhooks)." })
})
export const DeliveryEnvelope = Schema.Struct({ delivery: DeliveryView })

const id = { id: Str }

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/webhooks", { payload: CreateWebhookBody, success: CreatedWebhook.pipe(HttpApiSchema.status(201)), error: e(400, 401, 409) }),
    HttpApiEndpoint.get("list", "/webhooks", { success: Schema.Struct({ webhooks: Schema.Array(WebhookView) }), error: e(401) }),
    HttpApiEndpoint.get("get", "/webhooks/:id", { params: id, success: WebhookEnvelope, error: e(401, 404) }),
    HttpApiEndpoint.patch("update", "/webhooks/:id", { params: id, payload: UpdateWebhookBody, success: WebhookEnvelope, error: e(400, 401, 404) }),
    HttpApiEndpoint.delete("remove", "/webhooks/:id", { params: id, success: Schema.Struct({ id: Str, deleted: Schema.Boolean }), error: e(401, 404) }),
    HttpApiEndpoint.post("test", "/webhooks/:id/test", { params: id, success: DeliveryEnvelope, error: e(401, 404) }).annotate(
      OpenApi.Description,
      "Sends a webhook.test event to this endpoint now and answers with the delivery: the receiver's status and time, or why it failed."
    ),
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries", {
      params: id,
      query: { limit: opt(Str), status: opt(Str), cursor: opt(Str) },
      success: Schema.Struct({ deliveries: Schema.Array(DeliveryView), nextCursor: Schema.NullOr(Str) }),
      error: e(400, 401, 404)
    }),
    HttpApiEndpoint.post("redeliver", "/webhooks/:id/deliveries/:deliveryId/redeliver", {
      params: { id: Str, deliveryId: Str },
      success: DeliveryEnvelope,
      error: e(401, 404)
    }).annotate(OpenApi.Description, "Sends the delivery again from the start of its retry schedule, with the same event id.")
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
      success: Schema.Struct({
        events: Schema.Array(EventBody),
        nextCursor: Str.annotate({ description: "Pass as after= to get the events after these" })
      }),
      error: e(400, 401)
    })
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "The workspace's events, oldest first, the same objects webhooks deliver. With waitSeconds (up to 60) the call waits for the next event: an agent without a URL learns in one call that its post was approved, rejected or published (postId=..., types=post.approved,post.rejected)."
  ) {}
