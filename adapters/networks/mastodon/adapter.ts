import { Effect, Option } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { SqlClient } from "effect/sql"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeMastodonApi } from "./api.ts"
import { type AppRegistry, memoryRegistry, sqlRegistry } from "./apps.ts"
import { makeMastodonClient } from "./client.ts"
import type { MastodonSettings } from "./config.ts"
import * as MastodonConnector from "./MastodonConnector.ts"
import * as MastodonMetrics from "./metrics.ts"
import * as MastodonPublisher from "./MastodonPublisher.ts"

/** Mastodon on these settings: its registrations in `apps`, its uploads read from `blobs`. */
export const make = (settings: MastodonSettings, blobs: BlobStoreShape, apps: AppRegistry) =>
  Effect.map(
    makeMastodonApi(makeMastodonClient(makeRateGate())),
    (api): Network => ({
      platform: "mastodon",
      connector: MastodonConnector.make({
        api,
        apps,
        clientName: settings.clientName,
        website: settings.website
      }),
      publisher: { ...MastodonPublisher.make({ api, blobs }), metrics: MastodonMetrics.make(api) }
    })
  )

/**
 * The network from its settings, its uploads in the host's BlobStore. Registrations go to the
 * database when the host has one (mastodon_apps, network migration 0043), else stay in memory.
 */
export const build = (settings: MastodonSettings) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
    return yield* make(settings, blobs, Option.match(sql, { onNone: memoryRegistry, onSome: sqlRegistry }))
  })
