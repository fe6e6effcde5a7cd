import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS, makePinterestApi } from "./api.ts"
import { type PinterestConfig, scopes } from "./config.ts"
import * as PinterestMetrics from "./metrics.ts"
import * as PinterestConnector from "./PinterestConnector.ts"
import * as PinterestPublisher from "./PinterestPublisher.ts"

/** The Pinterest network on this configuration, its uploads read from `blobs`. */
export const make = (settings: PinterestConfig, blobs: BlobStoreShape): Network => {
  const api = makePinterestApi(settings, makeRateGate())
  const oauth = makeOAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes,
    scopeSeparator: ",",
    pkce: false,
    clientAuthentication: "basic",
    timeoutMs: CALL_TIMEOUT_MS,
    // Apps made before 2025-09-25 get continuous (renewable) refresh tokens only when they ask.
    tokenParams: { continuous_refresh: "true" }
  })
  return {
    platform: "pinterest",
    connector: PinterestConnector.make({ oauth, api }),
    publisher: { ...PinterestPublisher.make({ api, blobs }), metrics: PinterestMetrics.make(settings, makeRateGate()) }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: PinterestConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
