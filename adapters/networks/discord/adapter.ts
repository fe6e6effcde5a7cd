import { Effect } from "effect"
import { BlobStore } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import type { DiscordSettings } from "./config.ts"
import { makeConnector } from "./DiscordConnector.ts"
import { makePublisher } from "./DiscordPublisher.ts"

/** Discord from its settings: one rate gate (per-webhook buckets) for its connector and publisher, uploads from the BlobStore. */
export const build = (settings: DiscordSettings) =>
  Effect.map(BlobStore, (blobs): Network => {
    const gate = makeRateGate()
    return {
      platform: "discord",
      connector: makeConnector(settings, gate),
      publisher: makePublisher({ settings, blobs, gate })
    }
  })
