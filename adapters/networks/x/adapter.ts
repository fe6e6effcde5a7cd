import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeOAuth2Client } from "../shared/oauth2.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeXApi } from "./api.ts"
import { CALL_TIMEOUT_MS, makeXClient } from "./client.ts"
import { scopes, type XConfig } from "./config.ts"
import * as XMetrics from "./metrics.ts"
import * as XConnector from "./XConnector.ts"
import * as XPublisher from "./XPublisher.ts"

/** The X network on this configuration, its uploads read from `blobs`. */
export const make = (settings: XConfig, blobs: BlobStoreShape): Network => {
  const client = makeXClient(makeRateGate())
  const api = makeXApi(settings, client)
  const oauth = makeOAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorizeUrl: settings.authorizeUrl,
    tokenUrl: settings.tokenUrl,
    scopes,
    pkce: true,
    clientAuthentication: "basic",
    timeoutMs: CALL_TIMEOUT_MS
  })
  return {
    platform: "x",
    connector: XConnector.make({ oauth, api }),
    publisher: { ...XPublisher.make({ api, client, blobs }), metrics: XMetrics.make(settings, makeRateGate()) }
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: XConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
