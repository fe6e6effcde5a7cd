import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS, makeRedditApi } from "./api.ts"
import { type RedditConfig, scopes } from "./config.ts"
import * as RedditMetrics from "./metrics.ts"
import * as RedditConnector from "./RedditConnector.ts"
import * as RedditPublisher from "./RedditPublisher.ts"

/** The Reddit network on this configuration, its uploads read from `blobs`. */
export const make = (settings: RedditConfig, blobs: BlobStoreShape): Network => {
  const gate = makeRateGate()
  const api = makeRedditApi(settings, gate)
  const oauth = makeOAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes,
    pkce: false,
    clientAuthentication: "basic",
    timeoutMs: CALL_TIMEOUT_MS,
    // A refresh token comes only with a permanent grant.
    authorizeParams: { duration: "permanent" },
    tokenHeaders: { "user-agent": settings.userAgent },
    // Reddit answers a refused code with HTTP 200 and {"error": "invalid_grant"}.
    lenientTokenResponse: true
  })
  return {
    platform: "reddit",
    connector: RedditConnector.make({ oauth, api }),
    publisher: { ...RedditPublisher.make({ api, blobs }), metrics: RedditMetrics.make(settings, gate) }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: RedditConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
