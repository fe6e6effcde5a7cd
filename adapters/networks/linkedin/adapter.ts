import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeLinkedInApi } from "./api.ts"
import { CALL_TIMEOUT_MS, makeLinkedInClient } from "./client.ts"
import { type LinkedInConfig, scopesOf } from "./config.ts"
import * as LinkedInMetrics from "./metrics.ts"
import * as LinkedInConnector from "./LinkedInConnector.ts"
import * as LinkedInPublisher from "./LinkedInPublisher.ts"

/** The LinkedIn network on this configuration, its uploads read from `blobs`. */
export const make = (settings: LinkedInConfig, blobs: BlobStoreShape): Network => {
  const client = makeLinkedInClient(makeRateGate(), settings.version)
  const api = makeLinkedInApi(settings, client)
  // Figures have their own daily windows at LinkedIn: a throttled read must not close publishing.
  const readClient = makeLinkedInClient(makeRateGate(), settings.version)
  const oauth = makeOAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes: scopesOf(settings),
    pkce: false,
    clientAuthentication: "post",
    timeoutMs: CALL_TIMEOUT_MS,
    lenientTokenResponse: true
  })
  return {
    platform: "linkedin",
    connector: LinkedInConnector.make({ oauth, api, organizations: settings.organizations }),
    publisher: { ...LinkedInPublisher.make({ api, blobs }), metrics: LinkedInMetrics.make(settings, readClient) }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: LinkedInConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
