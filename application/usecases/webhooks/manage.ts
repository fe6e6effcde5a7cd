import { Effect, Option, Result } from "effect"
import { Base64Url } from "effect/encoding"
import type { Actor } from "../../../domain/apiKey.ts"
import type { CreateWebhookRequest, UpdateWebhookRequest } from "../../../domain/contract/webhook.ts"
import { fail, invalidFields } from "../../../domain/errors.ts"
import { TEST_EVENT_TYPE } from "../../../domain/events.ts"
import { isWellFormedId } from "../../../domain/ids.ts"
import {
  TEST_DELIVERY_HELD_MS,
  checkWebhookFields,
  deliveryIdOf,
  type DeliveryStatus,
  MAX_WEBHOOKS_PER_WORKSPACE,
  type Webhook
} from "../../../domain/webhooks.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { Store } from "../../ports/Store.ts"
import { TokenVault } from "../../ports/TokenVault.ts"
import { WebhookDeliveries } from "../../ports/WebhookDeliveries.ts"
import { WebhookRepo } from "../../ports/WebhookRepo.ts"
import { WebhookSender } from "../../ports/WebhookSender.ts"
import { fromResult, now } from "../common.ts"
import { attempt, makeRecorder } from "./deliver.ts"
import { emit, newEvent } from "./events.ts"
import { defaultDeliveryOptions } from "./options.ts"
import { deliveryView, webhookView } from "./views.ts"

/** The URL as the sender sees it: public, resolvable, https (checked again at every delivery). */
const checkUrl = (url: URL) =>
  Effect.flatMap(WebhookSender, (sender) => sender.check(url.href)).pipe(
    Effect.mapError((e) =>
      fail(
        "webhook_url_refused",
        { fields: ["url"], reason: e.reason },
        `Webhooks cannot be sent to this URL: ${e.reason}`
      )
    )
  )

const loadWebhook = Effect.fnUntraced(function* (actor: Actor, id: string) {
  const found = isWellFormedId(id) ? yield* (yield* WebhookRepo).find(actor.workspaceId, id) : Option.none<Webhook>()
  if (Option.isNone(found)) return yield* Effect.fail(fail("webhook_not_found", { webhookId: id }))
  return found.value
})

/** POST /webhooks, from the decoded request: registers an endpoint; its secret is in this answer only. Keys and people alike, any plan. */
export const createWebhook = Effect.fn("createWebhook")(function* (
  actor: Actor,
  body: typeof CreateWebhookRequest.Type
) {
  const checked = yield* fromResult(checkWebhookFields(body, { url: true }))
  yield* checkUrl(checked.url!)
  const repo = yield* WebhookRepo
  if ((yield* repo.list(actor.workspaceId)).length >= MAX_WEBHOOKS_PER_WORKSPACE)
    return yield* Effect.fail(fail("webhook_limit_reached", { limit: MAX_WEBHOOKS_PER_WORKSPACE }))
  const secret = yield* (yield* WebhookSender).newSecret()
  const at = yield* now
  const webhook: Webhook = {
    id: yield* (yield* Crypto).id("whk"),
    workspaceId: actor.workspaceId,
    url: checked.url!.href,
    eventTypes: checked.eventTypes ?? [],
    description: checked.description ?? "",
    enabled: checked.enabled ?? true,
    sealedSecret: yield* (yield* TokenVault).seal(secret),
    createdAt: at,
    updatedAt: at,
    failingSince: null,
    disabledReason: null
  }
  yield* repo.insert(webhook)
  return { webhook: webhookView(webhook), secret }
})

export const listWebhooks = Effect.fn("listWebhooks")(function* (actor: Actor) {
  return { webhooks: (yield* (yield* WebhookRepo).list(actor.workspaceId)).map(webhookView) }
})

export const getWebhook = Effect.fn("getWebhook")(function* (actor: Actor, id: string) {
  return { webhook: webhookView(yield* loadWebhook(actor, id)) }
})

/** PATCH /webhooks/{id}, from the decoded request: url, event types, description, enabled. Turning it on again clears a failing streak. */
export const updateWebhook = Effect.fn("updateWebhook")(function* (
  actor: Actor,
  id: string,
  body: typeof UpdateWebhookRequest.Type
) {
  const checked = yield* fromResult(checkWebhookFields(body, { url: false }))
  const webhook = yield* loadWebhook(actor, id)
  if (checked.url !== undefined) yield* checkUrl(checked.url)
  const turnedOn = checked.enabled === true && !webhook.enabled
  const updated: Webhook = {
    ...webhook,
    url: checked.url?.href ?? webhook.url,
    eventTypes: checked.eventTypes ?? webhook.eventTypes,
    description: checked.description ?? webhook.description,
    enabled: checked.enabled ?? webhook.enabled,
    disabledReason: checked.enabled === undefined ? webhook.disabledReason : null,
    failingSince: turnedOn ? null : webhook.failingSince,
    updatedAt: yield* now
  }
  if (!(yield* (yield* WebhookRepo).update(updated)))
    return yield* Effect.fail(fail("webhook_not_found", { webhookId: id }))
  return { webhook: webhookView(updated) }
})

/** DELETE /webhooks/{id}: the endpoint and its deliveries are gone; nothing more is sent to it. */
export const deleteWebhook = Effect.fn("deleteWebhook")(function* (actor: Actor, id: string) {
  if (!isWellFormedId(id) || !(yield* (yield* WebhookRepo).delete(actor.workspaceId, id)))
    return yield* Effect.fail(fail("webhook_not_found", { webhookId: id }))
  return { id, deleted: true as const }
})

/**
 * POST /webhooks/{id}/test: a `webhook.test` event to this endpoint alone, sent now (enabled or not)
 * and answered with the delivery: the receiver's status code and time, or why it failed.
 */
export const testWebhook = Effect.fn("testWebhook")(function* (actor: Actor, id: string) {
  const webhook = yield* loadWebhook(actor, id)
  const at = yield* now
  const event = yield* newEvent(
    TEST_EVENT_TYPE,
    webhook.workspaceId,
    { kind: "webhook", id: webhook.id },
    webhook.id,
    at,
    {
      webhookId: webhook.id,
      message: "A test event from Herald: if you can read this, your endpoint receives and can verify events."
    }
  )
  yield* (yield* Store).transaction(emit([{ ...event, onlyWebhookId: webhook.id }]))
  const deliveries = yield* WebhookDeliveries
  const deliveryId = deliveryIdOf(event.id, webhook.id)
  // Written planned a minute ahead, so no loop takes it first (the answer is the receiver's); held as long by this call.
  const leased = yield* deliveries.leaseOne(deliveryId, at, TEST_DELIVERY_HELD_MS)
  if (Option.isSome(leased))
    yield* (yield* makeRecorder(defaultDeliveryOptions.limits))(yield* attempt(leased.value, defaultDeliveryOptions))
  const delivery = yield* deliveries.find(actor.workspaceId, deliveryId)
  if (Option.isNone(delivery)) return yield* Effect.fail(fail("delivery_not_found", { webhookId: id }))
  return { delivery: deliveryView(delivery.value) }
})

const statuses: ReadonlyArray<DeliveryStatus> = ["pending", "succeeded", "failed"]

/** GET /webhooks/{id}/deliveries: newest first, `limit` 1..100 (default 20), `status`, `cursor`. */
export const listDeliveries = Effect.fn("listDeliveries")(function* (
  actor: Actor,
  id: string,
  query: {
    readonly limit?: string | undefined
    readonly status?: string | undefined
    readonly cursor?: string | undefined
  }
) {
  const bad: Array<string> = []
  const limit = query.limit === undefined ? 20 : /^[0-9]{1,3}$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) bad.push("limit")
  if (query.status !== undefined && !statuses.includes(query.status as DeliveryStatus)) bad.push("status")
  const before =
    query.cursor === undefined
      ? undefined
      : query.cursor.length > 128
        ? ""
        : Result.getOrElse(Base64Url.decodeString(query.cursor), () => "")
  if (before !== undefined && !/^dlv_[0-9A-Z]{52}$/.test(before)) bad.push("cursor")
  if (bad.length > 0)
    return yield* Effect.fail(
      invalidFields(bad, `limit is 1-100; status is one of ${statuses.join(", ")}; cursor comes from nextCursor.`)
    )
  const webhook = yield* loadWebhook(actor, id)
  const page = yield* (yield* WebhookDeliveries).list(actor.workspaceId, webhook.id, {
    limit: limit + 1,
    before,
    status: query.status as DeliveryStatus | undefined
  })
  const shown = page.slice(0, limit)
  return {
    deliveries: shown.map(deliveryView),
    nextCursor: page.length > limit ? Base64Url.encode(shown[shown.length - 1]!.id) : null
  }
})

/** POST /webhooks/{id}/deliveries/{deliveryId}/redeliver: sent again from the start of the retry schedule, same event id. */
export const redeliver = Effect.fn("redeliver")(function* (actor: Actor, id: string, deliveryId: string) {
  const webhook = yield* loadWebhook(actor, id)
  const found = isWellFormedId(deliveryId)
    ? yield* (yield* WebhookDeliveries).find(actor.workspaceId, deliveryId)
    : Option.none()
  if (Option.isNone(found) || found.value.webhookId !== webhook.id)
    return yield* Effect.fail(fail("delivery_not_found", { deliveryId }))
  const again = yield* (yield* WebhookDeliveries).redeliver(actor.workspaceId, deliveryId, yield* now)
  if (Option.isNone(again)) return yield* Effect.fail(fail("delivery_not_found", { deliveryId }))
  return { delivery: deliveryView(again.value) }
})
