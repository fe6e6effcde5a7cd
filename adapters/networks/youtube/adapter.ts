import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeYouTubeApi } from "./api.ts"
import { CALL_TIMEOUT_MS, makeYouTubeClient } from "./client.ts"
import { scopes, type YouTubeConfig } from "./config.ts"
import { makeQuota } from "./quota.ts"
import * as YouTubeMetrics from "./metrics.ts"
import * as YouTubeConnector from "./YouTubeConnector.ts"
import * as YouTubePublisher from "./YouTubePublisher.ts"

/** The YouTube network on this configuration, its uploads read from `blobs`. */
export const make = (settings: YouTubeConfig, blobs: BlobStoreShape): Network => {
  const quota = makeQuota(makeRateGate(), { uploads: settings.dailyUploads, units: settings.dailyUnits })
  const api = makeYouTubeApi(settings, makeYouTubeClient(quota))
  const oauth = makeOAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes,
    pkce: true,
    clientAuthentication: "post",
    timeoutMs: CALL_TIMEOUT_MS,
    // A refresh token needs offline access, and Google sends one again only when consent is asked again.
    authorizeParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" }
  })
  return {
    platform: "youtube",
    connector: YouTubeConnector.make({ oauth, api }),
    publisher: {
      ...YouTubePublisher.make({ api, blobs, quota, chunkBytes: settings.chunkBytes }),
      metrics: YouTubeMetrics.make(settings, quota)
    }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: YouTubeConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
