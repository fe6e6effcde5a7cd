import { Result } from "effect"
import { type HeraldError, invalidFields } from "./errors.ts"
import { type EventType, isEventType } from "./events.ts"
import { DAY_MS } from "./time.ts"

/** A registered endpoint. `secret` is sealed (TokenVault); the plain secret is shown once, at creation. */
export interface Webhook {
  readonly id: string
  readonly workspaceId: string
  readonly url: string
  /** Empty: every event type. */
  readonly eventTypes: ReadonlyArray<EventType>
  readonly description: string
  readonly enabled: boolean
  readonly sealedSecret: string
  readonly createdAt: number
  readonly updatedAt: number
  /** Since when every delivery has failed (null: the last one went through); days of it disable the endpoint. */
  readonly failingSince: number | null
  /** Why Herald turned it off (null when enabled, or turned off by a person). */
  readonly disabledReason: string | null
}

export type DeliveryStatus = "pending" | "succeeded" | "failed"

/** One event for one endpoint: created with the event, tried until it succeeds or its retries run out. */
export interface Delivery {
  readonly id: string
  readonly webhookId: string
  readonly workspaceId: string
  readonly eventId: string
  readonly eventType: string
  readonly status: DeliveryStatus
  /** Tries so far (every one, redeliveries included). */
  readonly attempts: number
  /** Failed tries since the event was written or last redelivered: the place in the retry schedule. */
  readonly roundFailures: number
  readonly createdAt: number
  /** When it is tried next (pending); null once finished. */
  readonly nextAttemptAt: number | null
  readonly lastAttemptAt: number | null
  readonly responseCode: number | null
  readonly responseTimeMs: number | null
  readonly error: string | null
  readonly deliveredAt: number | null
}

/** A delivery's id: its event's and its endpoint's (one event reaches one endpoint once; ids sort by event). */
export const deliveryIdOf = (eventId: string, webhookId: string): string =>
  `dlv_${eventId.slice(eventId.indexOf("_") + 1)}${webhookId.slice(webhookId.indexOf("_") + 1)}`

export const MAX_WEBHOOKS_PER_WORKSPACE = 20
export const MAX_URL_LENGTH = 2048
export const MAX_DESCRIPTION_LENGTH = 200

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/**
 * A test event's delivery is written planned this far ahead: the caller sends it at once itself, and the
 * queue only takes it if that caller died first (so the background loop never races the caller for it).
 */
export const TEST_DELIVERY_HELD_MS = MINUTE

/**
 * Waits before each retry: quick at first (a blip, a deploy), then hours apart; 12 retries over about
 * three days (75.6 h), after which the delivery fails for good (a person can still redeliver it).
 */
export const defaultRetrySchedule: ReadonlyArray<number> = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  24 * HOUR,
  24 * HOUR
]

/** An endpoint whose deliveries have all failed for this long is turned off and its owner told. */
export const DEFAULT_DISABLE_AFTER_MS = 5 * DAY_MS

/** The wait before the next try after `failures` failed tries; null when the schedule is used up. */
export const nextRetryIn = (schedule: ReadonlyArray<number>, failures: number): number | null =>
  failures >= 1 && failures <= schedule.length ? schedule[failures - 1]! : null

export interface WebhookRequestFields {
  readonly url?: unknown
  readonly eventTypes?: unknown
  readonly description?: unknown
  readonly enabled?: unknown
}

export interface CheckedWebhookFields {
  readonly url?: URL
  readonly eventTypes?: ReadonlyArray<EventType>
  readonly description?: string
  readonly enabled?: boolean
}

/**
 * The shape rules of an endpoint's fields (what can be told without the network): an absolute
 * https URL without credentials, known event types, a short description. Whether the host is public
 * is the WebhookSender's check, after DNS. `required` names the fields a create must have.
 */
export const checkWebhookFields = (
  body: WebhookRequestFields,
  required: { readonly url: boolean }
): Result.Result<CheckedWebhookFields, HeraldError> => {
  const bad: Array<string> = []
  const notes: Array<string> = []
  let url: URL | undefined
  if (body.url !== undefined || required.url) {
    const parsed = typeof body.url === "string" && body.url.length <= MAX_URL_LENGTH ? URL.parse(body.url) : null
    if (
      parsed === null ||
      (parsed.protocol !== "https:" && parsed.protocol !== "http:") ||
      parsed.username !== "" ||
      parsed.password !== ""
    ) {
      bad.push("url")
      notes.push(`url must be an absolute https URL without credentials, at most ${MAX_URL_LENGTH} characters.`)
    } else url = parsed
  }
  let eventTypes: Array<EventType> | undefined
  if (body.eventTypes !== undefined) {
    if (
      !Array.isArray(body.eventTypes) ||
      body.eventTypes.length > 100 ||
      !body.eventTypes.every((t) => typeof t === "string" && isEventType(t))
    ) {
      bad.push("eventTypes")
      notes.push(
        "eventTypes must be a list of event types (GET /events lists them in the docs); an empty list means every type."
      )
    } else eventTypes = [...new Set(body.eventTypes as Array<EventType>)]
  }
  let description: string | undefined
  if (body.description !== undefined) {
    if (
      typeof body.description !== "string" ||
      body.description.length > MAX_DESCRIPTION_LENGTH ||
      /[\u0000-\u001f\u007f]/.test(body.description)
    ) {
      bad.push("description")
      notes.push(`description is text of at most ${MAX_DESCRIPTION_LENGTH} characters, on one line.`)
    } else description = body.description
  }
  if (body.enabled !== undefined && typeof body.enabled !== "boolean") {
    bad.push("enabled")
    notes.push("enabled is true or false.")
  }
  if (bad.length > 0) return Result.fail(invalidFields(bad, notes.join(" ")))
  return Result.succeed({
    ...(url === undefined ? {} : { url }),
    ...(eventTypes === undefined ? {} : { eventTypes }),
    ...(description === undefined ? {} : { description }),
    ...(typeof body.enabled === "boolean" ? { enabled: body.enabled } : {})
  })
}

/** Whether the endpoint wants events of this type. */
export const subscribes = (webhook: Pick<Webhook, "eventTypes" | "enabled">, type: string): boolean =>
  webhook.enabled && (webhook.eventTypes.length === 0 || (webhook.eventTypes as ReadonlyArray<string>).includes(type))
