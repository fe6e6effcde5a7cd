import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS, makeGoogleBusinessApi } from "./api.ts"
import { type GoogleBusinessConfig, scopes } from "./config.ts"
import * as GoogleBusinessConnector from "./GoogleBusinessConnector.ts"
import * as GoogleBusinessPublisher from "./GoogleBusinessPublisher.ts"

/** Google Business Profile on this configuration, its images fetched by Google from `blobs`' links. */
export const make = (settings: GoogleBusinessConfig, blobs: BlobStoreShape): Network => {
  const api = makeGoogleBusinessApi(settings, makeRateGate())
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
    platform: "google_business",
    connector: GoogleBusinessConnector.make({ oauth, api }),
    publisher: GoogleBusinessPublisher.make({ api, blobs, languageCode: settings.languageCode })
  }
}

/** The network from its settings, its images in the host's BlobStore. */
export const build = (settings: GoogleBusinessConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
