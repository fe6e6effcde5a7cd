import { formatUtc } from "../../../domain/time.ts"
import type { Delivery as DeliveryView, Webhook as WebhookView } from "../../../domain/contract/webhook.ts"
import type { Delivery, Webhook } from "../../../domain/webhooks.ts"

const time = (t: number | null) => (t === null ? null : formatUtc(t))

/** An endpoint as the API shows it (never its secret). */
export const webhookView = (w: Webhook): WebhookView => ({
  id: w.id,
  url: w.url,
  eventTypes: w.eventTypes,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.disabledReason,
  failingSince: time(w.failingSince),
  createdAt: formatUtc(w.createdAt),
  updatedAt: formatUtc(w.updatedAt)
})

export const deliveryView = (d: Delivery): DeliveryView => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  createdAt: formatUtc(d.createdAt),
  lastAttemptAt: time(d.lastAttemptAt),
  nextAttemptAt: d.status === "pending" ? time(d.nextAttemptAt) : null,
  responseCode: d.responseCode,
  responseTimeMs: d.responseTimeMs,
  error: d.error,
  deliveredAt: time(d.deliveredAt)
})
