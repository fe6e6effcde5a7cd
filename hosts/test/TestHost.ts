import { Layer } from "effect"
import { defaultLimits, defaultRequestLimits, HeraldConfig, type HeraldConfigShape } from "../../application/config.ts"
import * as ReadCache from "../../application/readCache.ts"
import * as RequestLimiter from "../../application/requestLimiter.ts"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as HmacFileLinks from "../../adapters/crypto/HmacFileLinks.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import { storageLayer } from "../../adapters/memory/index.ts"
import * as RecordingMailer from "../../adapters/memory/RecordingMailer.ts"
import * as MemoryBlobStore from "../../adapters/memory/MemoryBlobStore.ts"
import * as SharpFfmpegProbe from "../../adapters/media/SharpFfmpegProbe.ts"
import { config as pinterestConfig } from "../../adapters/networks/pinterest/config.ts"
import * as Sandbox from "../../adapters/networks/sandbox/index.ts"
import { config as linkedinConfig } from "../../adapters/networks/linkedin/config.ts"
import { config as tiktokConfig } from "../../adapters/networks/tiktok/config.ts"
import * as X from "../../adapters/networks/x/index.ts"
import { config as youtubeConfig } from "../../adapters/networks/youtube/config.ts"
import * as Facebook from "../../adapters/networks/facebook/index.ts"
import * as ReelLedger from "../../adapters/networks/facebook/reelLedger.ts"
import * as Instagram from "../../adapters/networks/instagram/index.ts"
import * as Threads from "../../adapters/networks/threads/index.ts"
import { Connectors } from "../../application/ports/Connectors.ts"
import { connectorsOf } from "../../application/ports/Network.ts"
import { lazyNetwork, networksLayer } from "../networks.ts"
import * as SandboxPublisher from "../../adapters/networks/sandbox/SandboxPublisher.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"

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
export const layer = (overrides: Partial<HeraldConfigShape> = {}) => layerOn(storageLayer, overrides)

/** The same host on other storage (the Postgres adapters on a test database, say). */
export const layerOn = <E, R>(
  storage: Layer.Layer<Layer.Success<typeof storageLayer>, E, R>,
  overrides: Partial<HeraldConfigShape> = {}
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
    // X, the Meta networks and the others join when their variables are set (their end-to-end tests point them at fakes).
    networksLayer([
      Sandbox.network,
      X.network,
      Facebook.network,
      Instagram.network,
      Threads.network,
      // Loaded only when configured: a host starts as fast with them off as without them.
      lazyNetwork(linkedinConfig, () => import("../../adapters/networks/linkedin/index.ts")),
      lazyNetwork(youtubeConfig, () => import("../../adapters/networks/youtube/index.ts")),
      lazyNetwork(tiktokConfig, () => import("../../adapters/networks/tiktok/index.ts")),
      lazyNetwork(pinterestConfig, () => import("../../adapters/networks/pinterest/index.ts"))
    ]).pipe(
      Layer.provideMerge(SandboxPublisher.layerRecording),
      Layer.provide(blobs),
      Layer.provide(ReelLedger.memoryLayer)
    ),
    Layer.succeed(HeraldConfig)(testConfig(overrides)),
    // As in the deployed hosts, so tests see what a cached read would hide.
    ReadCache.layer(5000),
    RequestLimiter.layer(testConfig(overrides).requestLimits),
    // Tests receive webhooks on loopback: what the setting is for.
    HttpWebhookSender.layer({ allowLoopback: true, timeoutMs: 5000 })
  ).pipe(Layer.provideMerge(storage))
}

/** Connectors for the sandbox alone, for tests that bring their own publishers. */
export const sandboxConnectors = Layer.succeed(Connectors)(connectorsOf([Sandbox.connector]))
