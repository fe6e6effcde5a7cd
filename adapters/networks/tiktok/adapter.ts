import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS, makeTikTokApi } from "./api.ts"
import { scopes, type TikTokConfig } from "./config.ts"
import * as TikTokMetrics from "./metrics.ts"
import * as TikTokConnector from "./TikTokConnector.ts"
import * as TikTokPublisher from "./TikTokPublisher.ts"

/** The TikTok network on this configuration, its uploads read from `blobs` (photos are fetched by TikTok from `blobs.url`). */
export const make = (settings: TikTokConfig, blobs: BlobStoreShape): Network => {
  const api = makeTikTokApi(settings, makeRateGate())
  const oauth = makeOAuth2Client({
    clientId: settings.clientKey,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes,
    scopeSeparator: ",",
    pkce: false,
    clientAuthentication: "post",
    timeoutMs: CALL_TIMEOUT_MS,
    lenientTokenResponse: true,
    // TikTok names the client id client_key, on the authorize page and at the token endpoint.
    authorizeParams: { client_key: settings.clientKey },
    tokenParams: { client_key: settings.clientKey }
  })
  return {
    platform: "tiktok",
    connector: TikTokConnector.make({ oauth, api }),
    publisher: {
      ...TikTokPublisher.make({ api, blobs, chunkBytes: settings.chunkBytes }),
      metrics: TikTokMetrics.make(settings, makeRateGate())
    }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: TikTokConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
