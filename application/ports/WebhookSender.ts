import { Context, type Effect, Schema } from "effect"

/** The URL cannot receive webhooks: not https, or its host is (or resolves to) a private, loopback or link-local address. */
export class WebhookUrlRefused extends Schema.TaggedError<WebhookUrlRefused>()("WebhookUrlRefused", {
  reason: Schema.String
}) {}

export interface WebhookRequest {
  readonly url: string
  /** The endpoint's `whsec_...` secret. */
  readonly secret: string
  /** The event id: the `webhook-id` header, the same on every try. */
  readonly id: string
  /** When this try is signed (epoch ms). */
  readonly timestamp: number
  readonly body: string
}

export interface WebhookResponse {
  /** A 2xx answer came back. */
  readonly ok: boolean
  /** The HTTP status (null when none came: refused address, timeout, connection error). */
  readonly status: number | null
  readonly durationMs: number
  /** Why it failed, for the deliveries list (null on success). */
  readonly error: string | null
}

export interface WebhookSenderShape {
  /** Checks a URL at registration: its scheme and every address its host resolves to. */
  readonly check: (url: string) => Effect.Effect<void, WebhookUrlRefused>
  /**
   * One signed POST (Standard Webhooks), to an address checked after DNS resolution and connected
   * to as resolved; no redirect followed; bounded in time and in the answer read. Never fails.
   */
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
  /** A new endpoint secret, `whsec_` and base64. */
  readonly newSecret: () => Effect.Effect<string>
}

export class WebhookSender extends Context.Service<WebhookSender, WebhookSenderShape>()("herald/WebhookSender") {}
