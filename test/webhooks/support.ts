import { Effect, Layer } from "effect"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { createWebhook } from "../../application/usecases/webhooks/manage.ts"
import { defaultDeliveryOptions, type DeliveryOptions } from "../../application/usecases/webhooks/options.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { pipelineLayer } from "../scheduler/support.ts"
import type { SqlClient } from "effect/sql"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import * as ScriptedPublisher from "../../adapters/testing/ScriptedPublisher.ts"
import { HeraldConfig } from "../../application/config.ts"
import { sandboxConnectors, testConfig } from "../../hosts/test/TestHost.ts"
import { freshSqlStorage } from "../support/storage.ts"

/** The in-memory host with the scripted network, and a sender that may reach loopback receivers. */
export const webhooksLayer = () =>
  Layer.merge(pipelineLayer(), HttpWebhookSender.layer({ allowLoopback: true, timeoutMs: 5000 }))

export const testDeliveryOptions: DeliveryOptions = { ...defaultDeliveryOptions, pollMs: 1000 }

/** Registers `url` for the actor's workspace and tells the receiver the secret. */
export const register = (
  actor: Actor,
  receiver: { readonly url: string; readonly setSecret: (s: string) => void },
  body: Record<string, unknown> = {}
) =>
  Effect.map(createWebhook(actor, { url: receiver.url, ...body }), (created) => {
    receiver.setSecret(created.secret)
    return created.webhook.id
  })

/** The same host on the PostgreSQL adapters over `sql` (a shared, migrated client), emptied when built. */
export const webhooksLayerOnPostgres = <E>(sql: Layer.Layer<SqlClient.SqlClient, E>) =>
  Layer.mergeAll(
    freshSqlStorage(sql),
    NodeCrypto.layer,
    AesGcmVault.layer("herald test secret"),
    RecordingMailer.layer,
    sandboxConnectors,
    ScriptedPublisher.layer(["sandbox"]),
    MemoryBlobStore.layer("http://herald.test").pipe(Layer.provide(HmacFileLinks.layer("herald test secret"))),
    Layer.succeed(HeraldConfig)(testConfig()),
    HttpWebhookSender.layer({ allowLoopback: true, timeoutMs: 5000 })
  )
