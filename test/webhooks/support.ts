import { Effect, Layer } from "effect"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { createWebhook } from "../../application/usecases/webhooks/manage.ts"
import { defaultDeliveryOptions, type DeliveryOptions } from "../../application/usecases/webhooks/options.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { pipelineLayer } from "../scheduler/support.ts"

/** The in-memory host with the scripted network, and a sender that may reach loopback receivers. */
export const webhooksLayer = () => Layer.merge(pipelineLayer(), HttpWebhookSender.layer({ allowLoopback: true, timeoutMs: 5000 }))

export const testDeliveryOptions: DeliveryOptions = { ...defaultDeliveryOptions, pollMs: 1000 }

/** Registers `url` for the actor's workspace and tells the receiver the secret. */
export const register = (actor: Actor, receiver: { readonly url: string; readonly setSecret: (s: string) => void }, body: Record<string, unknown> = {}) =>
  Effect.map(createWebhook(actor, { url: receiver.url, ...body }), (created) => {
    receiver.setSecret(created.secret)
    return created.webhook.id
  })
