import { ConfigProvider, Layer } from "effect"
import { defaultLimits, defaultRequestLimits, HeraldConfig, type HeraldConfigShape } from "../../application/config.ts"
import * as ReadCache from "../../application/readCache.ts"
import * as RequestLimiter from "../../application/requestLimiter.ts"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as MemoryStorage from "../../adapters/memory/index.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as SharpFfmpegProbe from "../../adapters/media/SharpFfmpegProbe.ts"
import * as ReelLedger from "../../adapters/networks/facebook/reelLedger.ts"
import { Connectors } from "../../application/ports/Connectors.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import * as Networks from "../networks.ts"

/** Networks offered with no settings at all join a test host only when a test sets their *_ENABLED. */
const offOnTestHosts = Object.fromEntries(
  Networks.networks
    .filter((n) => n.offeredWithoutSettings === true)
    .map((n) => [`${n.platform.toUpperCase()}_ENABLED`, "false"])
)
import { connector as sandboxConnector } from "../../adapters/networks/sandbox/index.ts"
import * as SandboxPublisher from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import * as Outbound from "../../adapters/outbound/client.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import * as HttpClientDocuments from "../../adapters/webhooks/HttpClientDocuments.ts"

export const testConfig = (overrides: Partial<HeraldConfigShape> = {}): HeraldConfigShape => ({
  publicUrl: "http://herald.test",
  keyPrefix: "hrld",
  signupEnabled: true,
  limits: defaultLimits,
  requestLimits: defaultRequestLimits,
  ...overrides
})

/**
 * The in-memory host: memory storage, a recording mailer (SentMail), the sandbox network
 * (SandboxPublished) and real crypto. Time is Effect's Clock, so TestClock drives it in tests.
 */
export const layer = <E = never, R = never>(
  overrides: Partial<HeraldConfigShape> = {},
  /** Other storage than memory (the Postgres adapters on a test database, say). */
  storage: Layer.Layer<Layer.Success<typeof MemoryStorage.layer>, E, R> = MemoryStorage.layer as Layer.Layer<
    Layer.Success<typeof MemoryStorage.layer>,
    E,
    R
  >
) => {
  const fileLinks = HmacFileLinks.layer("herald test secret")
  const blobs = MemoryBlobStore.layer(testConfig(overrides).publicUrl).pipe(Layer.provide(fileLinks))
  return Layer.mergeAll(
    NodeCrypto.layer,
    AesGcmVault.layer("herald test secret"),
    fileLinks,
    RecordingMailer.layer,
    blobs,
    SharpFfmpegProbe.layer(),
    // Every listed network its variables turn on (the end-to-end tests point them at fakes).
    Networks.layer.pipe(
      Layer.provide(
        ConfigProvider.layer(
          ConfigProvider.fromEnv({
            env: { ...offOnTestHosts, ...process.env } as Record<string, string>
          })
        )
      ),
      Layer.provideMerge(SandboxPublisher.layerTest),
      Layer.provide(blobs),
      Layer.provide(ReelLedger.layerTest)
    ),
    Layer.succeed(HeraldConfig)(testConfig(overrides)),
    // As in the deployed hosts, so tests see what a cached read would hide.
    ReadCache.layer(5000),
    RequestLimiter.layer(testConfig(overrides).requestLimits),
    // Tests receive webhooks, serve pages, client documents and PDSs on loopback: what the setting is for.
    Outbound.layer({ allowLoopback: true }),
    HttpWebhookSender.layer({ allowLoopback: true, timeoutMs: 5000 }),
    HttpClientDocuments.layer({ allowLoopback: true })
  ).pipe(Layer.provideMerge(storage))
}

/** Connectors for the sandbox alone, for tests that bring their own publishers. */
export const sandboxConnectors = Layer.succeed(Connectors)(connectorsOf([sandboxConnector]))
