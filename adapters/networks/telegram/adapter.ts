import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeBotApi } from "./api.ts"
import type { TelegramSettings } from "./config.ts"
import * as TelegramConnector from "./TelegramConnector.ts"
import * as TelegramPublisher from "./TelegramPublisher.ts"

/** Telegram on these settings, its uploads read from `blobs`; one flood-control gate per process. */
export const make = (settings: TelegramSettings, blobs: BlobStoreShape): Network => {
  const api = makeBotApi(settings.apiUrl)
  return {
    platform: "telegram",
    connector: TelegramConnector.make(api),
    publisher: TelegramPublisher.make({ api, blobs, gate: makeRateGate() })
  }
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: TelegramSettings) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
