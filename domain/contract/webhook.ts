import { Schema } from "effect"
import { eventTypes } from "../events.ts"
import { Time } from "./postParts.ts"

// Webhook endpoints and their deliveries, as the API shows them (never an endpoint's secret).

const Str = Schema.String
export const EventType = Schema.Literals(eventTypes).annotate({ identifier: "EventType" })

export const Webhook = Schema.Struct({
  id: Str,
  url: Str,
  eventTypes: Schema.Array(EventType).annotate({ description: "Empty: every event type" }),
  description: Str,
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Str).annotate({
    description: "Set when Herald turned the endpoint off after days of failures"
  }),
  failingSince: Schema.NullOr(Time).annotate({
    description: "Since when every delivery has failed; null when the last one went through"
  }),
  createdAt: Time,
  updatedAt: Time
}).annotate({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

export const Delivery = Schema.Struct({
  id: Str,
  webhookId: Str,
  eventId: Str.annotate({ description: "The webhook-id header of every try" }),
  eventType: Str,
  status: Schema.Literals(["pending", "succeeded", "failed"]),
  attempts: Schema.Int,
  createdAt: Time,
  lastAttemptAt: Schema.NullOr(Time),
  nextAttemptAt: Schema.NullOr(Time),
  responseCode: Schema.NullOr(Schema.Int),
  responseTimeMs: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Str),
  deliveredAt: Schema.NullOr(Time)
}).annotate({ identifier: "WebhookDelivery" })
export type Delivery = typeof Delivery.Type

const webhookFields = {
  url: Str.annotate({
    description: "A public https URL; checked after DNS resolution, at registration and at every delivery"
  }),
  eventTypes: Schema.optional(Schema.Array(EventType).annotate({ description: "Omit or [] for every type" })),
  description: Schema.optional(Str),
  enabled: Schema.optional(Schema.Boolean)
}

export const CreateWebhookRequest = Schema.Struct(webhookFields).annotate({ identifier: "CreateWebhookRequest" })
export const UpdateWebhookRequest = Schema.Struct({
  ...webhookFields,
  url: Schema.optional(webhookFields.url)
}).annotate({ identifier: "UpdateWebhookRequest" })

export const WebhookEnvelope = Schema.Struct({ webhook: Webhook }).annotate({ identifier: "WebhookEnvelope" })
export const CreatedWebhook = Schema.Struct({
  webhook: Webhook,
  secret: Str.annotate({
    description:
      "whsec_...: shown only in this answer. Verify each request's webhook-signature with it (Standard Webhooks)."
  })
}).annotate({ identifier: "CreatedWebhook" })
export const WebhookList = Schema.Struct({ webhooks: Schema.Array(Webhook) }).annotate({ identifier: "WebhookList" })
export const DeletedWebhook = Schema.Struct({ id: Str, deleted: Schema.Literal(true) }).annotate({
  identifier: "DeletedWebhook"
})
export const DeliveryEnvelope = Schema.Struct({ delivery: Delivery }).annotate({ identifier: "DeliveryEnvelope" })
export const DeliveryList = Schema.Struct({
  deliveries: Schema.Array(Delivery),
  nextCursor: Schema.NullOr(Str)
}).annotate({ identifier: "DeliveryList" })
