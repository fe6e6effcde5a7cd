import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeMetaLogin } from "../meta/auth.ts"
import type { MetaAppConfig } from "../meta/config.ts"
import { GRAPH_TIMEOUT_MS, makeGraph } from "../meta/graph.ts"
import { insightsFigures, makeInsights } from "../meta/insights.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeApi } from "./api.ts"
import { scopes } from "./config.ts"
import * as ThreadsConnector from "./ThreadsConnector.ts"
import * as ThreadsPublisher from "./ThreadsPublisher.ts"

/** The Threads network on this app, its uploads fetched by Meta from `blobs`' URLs. */
export const make = (settings: MetaAppConfig, blobs: BlobStoreShape) => {
  const graph = makeGraph({
    network: "Threads",
    apiUrl: settings.apiUrl,
    version: settings.version,
    gate: makeRateGate(),
    appSecret: settings.clientSecret
  })
  const api = makeApi(graph)
  const login = makeMetaLogin("Threads", { ...settings, scopes, timeoutMs: GRAPH_TIMEOUT_MS })
  return {
    platform: "threads",
    connector: ThreadsConnector.make({ login, api }),
    publisher: {
      ...ThreadsPublisher.make({ api, blobs }),
      metrics: makeInsights({
        network: "Threads",
        graphOf: () => graph,
        permission: "threads_manage_insights",
        path: (id) => `/${id}/insights`,
        params: { metric: "views,likes,replies,reposts,quotes,shares" },
        figuresOf: insightsFigures
      })
    }
  } satisfies Network
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: MetaAppConfig) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
