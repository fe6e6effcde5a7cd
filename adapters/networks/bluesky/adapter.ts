import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeConnector } from "./BlueskyConnector.ts"
import { makePublisher } from "./BlueskyPublisher.ts"
import { makeClient } from "./client.ts"
import { type BlueskyOptions, DEFAULT_APPVIEW_URL } from "./config.ts"
import * as BlueskyMetrics from "./metrics.ts"
import { makeRateGate as makeSharedGate } from "../shared/rateGate.ts"
import { makeRateGate } from "./rateGate.ts"

/** The Bluesky network on these options: one client, one rate gate per process. */
export const makeNetwork = (options: BlueskyOptions, blobs: BlobStoreShape): Network => {
  const client = makeClient(options)
  return {
    platform: "bluesky",
    connector: makeConnector(client, options.serviceUrl.replace(/\/+$/, ""), makeRateGate()),
    publisher: {
      ...makePublisher({ client, blobs, gate: makeRateGate() }),
      metrics: BlueskyMetrics.make(options.appViewUrl ?? DEFAULT_APPVIEW_URL, makeSharedGate())
    }
  }
}

/** Bluesky from its settings, its uploads in the host's BlobStore. */
export const build = (options: BlueskyOptions) => Effect.map(BlobStore, (blobs) => makeNetwork(options, blobs))
