import { Effect, Option } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeConnector } from "./BlueskyConnector.ts"
import { makePublisher } from "./BlueskyPublisher.ts"
import { makeClient } from "./client.ts"
import { blueskyConfig, type BlueskyOptions } from "./config.ts"
import { makeRateGate } from "./rateGate.ts"

/** The Bluesky network on these options: one client, one rate gate per process. */
export const makeNetwork = (options: BlueskyOptions, blobs: BlobStoreShape): Network => {
  const client = makeClient(options)
  return {
    platform: "bluesky",
    connector: makeConnector(client, options.serviceUrl.replace(/\/+$/, ""), makeRateGate()),
    publisher: makePublisher({ client, blobs, gate: makeRateGate(), linkCardsFromPrivateHosts: options.linkCardsFromPrivateHosts === true })
  }
}

/** Bluesky, unless BLUESKY_ENABLED=false; handles log in at BLUESKY_SERVICE_URL (https://bsky.social). */
export const network = Effect.gen(function* () {
  const config = yield* blueskyConfig
  if (!config.enabled) return Option.none<Network>()
  return Option.some(makeNetwork({ serviceUrl: config.serviceUrl }, yield* BlobStore))
})
