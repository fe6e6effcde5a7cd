import { Clock, Effect, Exit, Option } from "effect"
import { TEST_EVENT_TYPE } from "../../../domain/events.ts"
import { webhookDisabledMail } from "../../../domain/messages.ts"
import { formatUtc } from "../../../domain/time.ts"
import { nextRetryIn } from "../../../domain/webhooks.ts"
import { HeraldConfig } from "../../config.ts"
import { groupCommit } from "../../groupCommit.ts"
import { type Leasing, type LeaseLoop, leaseOnce, startLeaseLoop } from "../../leaseLoop.ts"
import { TokenVault } from "../../ports/TokenVault.ts"
import {
  type DeliveryLimits,
  type DeliveryRecord,
  type DeliveryResult,
  type LeasedDelivery,
  WebhookDeliveries
} from "../../ports/WebhookDeliveries.ts"
import { WebhookRepo } from "../../ports/WebhookRepo.ts"
import { WebhookSender } from "../../ports/WebhookSender.ts"
import { WorkspaceRepo } from "../../ports/WorkspaceRepo.ts"
import { trySend } from "../mail.ts"
import type { DeliveryOptions } from "./options.ts"

/** One try: the endpoint's secret opened, the event signed and sent, and what to record of it. */
export const attempt = Effect.fnUntraced(function* (delivery: LeasedDelivery, options: DeliveryOptions) {
  const secret = yield* Effect.result((yield* TokenVault).open(delivery.webhook.sealedSecret))
  const response =
    secret._tag === "Failure"
      ? {
          ok: false,
          status: null,
          durationMs: 0,
          error: "The endpoint's secret cannot be opened on this server (HERALD_SECRET changed)."
        }
      : yield* (yield* WebhookSender).send({
          url: delivery.webhook.url,
          secret: secret.success,
          id: delivery.event.id,
          timestamp: yield* Clock.currentTimeMillis,
          body: delivery.event.body
        })
  const at = yield* Clock.currentTimeMillis
  const wait = nextRetryIn(options.retrySchedule, delivery.roundFailures + 1)
  // A test event is tried once: its answer is what the caller wants to see.
  const result: DeliveryResult = response.ok
    ? { _tag: "Succeeded" }
    : wait === null || delivery.event.type === TEST_EVENT_TYPE
      ? { _tag: "GaveUp" }
      : { _tag: "Retry", retryAt: at + wait }
  return {
    delivery,
    at,
    result,
    responseCode: response.status,
    responseTimeMs: response.durationMs,
    error: response.error,
    hung: !response.ok && response.durationMs >= options.hangMs
  } satisfies DeliveryRecord
})

/** Turns off an endpoint that has failed for `disableAfterMs`, and tells its owner, once. */
const disableIfFailingLong = Effect.fnUntraced(function* (record: DeliveryRecord, options: DeliveryOptions) {
  const since = record.delivery.webhook.failingSince
  if (record.result._tag === "Succeeded" || since === null || record.at - since < options.disableAfterMs) return
  const repo = yield* WebhookRepo
  const found = yield* repo.find(record.delivery.webhook.workspaceId, record.delivery.webhook.id)
  if (Option.isNone(found) || !found.value.enabled || found.value.failingSince === null) return
  const webhook = found.value
  const reason = `Every delivery failed from ${formatUtc(webhook.failingSince!)} to ${formatUtc(record.at)}.`
  yield* repo.update({ ...webhook, enabled: false, disabledReason: reason, updatedAt: record.at })
  yield* Effect.logWarning("webhook turned off after failing for days").pipe(
    Effect.annotateLogs({ webhook: webhook.id, since: formatUtc(webhook.failingSince!) })
  )
  const workspace = yield* (yield* WorkspaceRepo).findById(webhook.workspaceId)
  if (Option.isNone(workspace)) return
  const config = yield* HeraldConfig
  yield* trySend(
    workspace.value.ownerEmail,
    webhookDisabledMail(workspace.value.locale, {
      url: webhook.url,
      since: formatUtc(webhook.failingSince!),
      appLink: `${config.publicUrl}/app`
    })
  )
})

/** Records tries of concurrent deliveries together (one write per batch), each answered on its own. */
export const makeRecorder = Effect.fnUntraced(function* (limits: DeliveryLimits) {
  const deliveries = yield* WebhookDeliveries
  return groupCommit((records: ReadonlyArray<DeliveryRecord>) =>
    Effect.map(deliveries.record(records, limits), (done) => records.map((r) => Exit.succeed(done.has(r.delivery.id))))
  )
})

/**
 * Sends one leased delivery and records it; never fails (a lost record lets the lease run out: sent
 * again, same id). `sent` runs once the request is over, before the record: the worker frees the
 * delivery's slot there, so a slow record never holds a slot another request could use.
 */
export const deliver = (
  delivery: LeasedDelivery,
  options: DeliveryOptions,
  record: (r: DeliveryRecord) => Effect.Effect<boolean>,
  sent: Effect.Effect<void> = Effect.void
) =>
  Effect.gen(function* () {
    const done = yield* Effect.ensuring(attempt(delivery, options), sent)
    if (!(yield* record(done)))
      return yield* Effect.logWarning("delivery lease lost; not recorded").pipe(
        Effect.annotateLogs({ delivery: delivery.id })
      )
    if (done.result._tag !== "Succeeded") {
      yield* Effect.logInfo("webhook delivery failed").pipe(
        Effect.annotateLogs({ delivery: delivery.id, status: done.responseCode ?? "none", error: done.error ?? "" })
      )
      yield* disableIfFailingLong(done, options)
    }
  }).pipe(
    Effect.catchCause((cause) => Effect.logError("webhook delivery crashed; its lease will run out", cause)),
    Effect.withSpan("deliverWebhook", { attributes: { delivery: delivery.id } })
  )

type DeliveryServices = Effect.Services<ReturnType<typeof deliver>>

/** Webhook deliveries for the lease loop: each goes on its own; its slot frees once its request is over. */
const webhookDeliveries = Effect.fnUntraced(function* (options: DeliveryOptions) {
  const deliveries = yield* WebhookDeliveries
  const record = yield* makeRecorder(options.limits)
  return {
    name: "webhook deliveries",
    lease: (now, max, leaseMs) => deliveries.lease(now, max, leaseMs, options.limits),
    extend: deliveries.extend,
    handle: (leased, done) =>
      Effect.forEach(leased, (d) => deliver(d, options, record, done(d)), { concurrency: "unbounded", discard: true })
  } satisfies Leasing<LeasedDelivery, DeliveryServices>
})

/** Leases what is due now (up to `max`) and delivers it. One pass: for tests that step the clock. Returns how many went. */
export const deliverDueWebhooks = Effect.fn("deliverDueWebhooks")(function* (
  options: DeliveryOptions,
  max = options.batch
) {
  return yield* leaseOnce(yield* webhookDeliveries(options), max, options.leaseMs)
})

export type DeliveryWorker = LeaseLoop

/**
 * The delivery loop in the background of the current scope, with its own slots (never the publishing
 * worker's): at most `concurrency` deliveries in flight, short leases kept alive by the loop's heartbeat.
 */
export const startDeliveryWorker = Effect.fnUntraced(function* (options: DeliveryOptions) {
  return yield* startLeaseLoop(yield* webhookDeliveries(options), {
    ...options,
    // Under load, lease half a batch at a time rather than one per freed slot: one statement, many deliveries.
    gather: Math.max(1, Math.floor(options.batch / 2))
  })
})
