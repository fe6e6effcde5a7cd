import { Effect } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { GRAPH_TIMEOUT_MS, makeGraph } from "../meta/graph.ts"
import { insightsFigures, makeInsights } from "../meta/insights.ts"
import { makeFacebookLogin } from "../meta/pages.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { makeApi } from "./api.ts"
import { type FacebookSettings, scopes } from "./config.ts"
import * as FacebookConnector from "./FacebookConnector.ts"
import * as FacebookPublisher from "./FacebookPublisher.ts"
import { ReelLedger, type ReelLedgerShape } from "./reelLedger.ts"

/** The Facebook Pages network on this app, its uploads fetched by Meta from `blobs`' URLs, its reels counted in `reels`. */
export const make = (settings: FacebookSettings, blobs: BlobStoreShape, reels: ReelLedgerShape) => {
  const graph = makeGraph({
    network: "Facebook",
    apiUrl: settings.apiUrl,
    version: settings.version,
    gate: makeRateGate(),
    appSecret: settings.clientSecret
  })
  return {
    platform: "facebook",
    connector: FacebookConnector.make({ login: makeFacebookLogin(settings, graph, scopes, GRAPH_TIMEOUT_MS) }),
    publisher: {
      ...FacebookPublisher.make({ api: makeApi(graph), blobs, reels }),
      metrics: makeInsights({
        network: "Facebook",
        graphOf: () => graph,
        permission: "read_insights",
        // One read per post: its shares and comment count, and its lifetime insights, by field expansion.
        path: (id) => `/${id}`,
        params: {
          fields:
            "shares,comments.limit(0).summary(true),insights.metric(post_impressions,post_clicks,post_reactions_like_total)"
        },
        figuresOf: (body) => {
          const post = body as {
            shares?: { count?: unknown }
            comments?: { summary?: { total_count?: unknown } }
            insights?: unknown
          }
          return {
            ...insightsFigures(post?.insights),
            ...(typeof post?.shares?.count === "number" ? { shares: post.shares.count } : {}),
            ...(typeof post?.comments?.summary?.total_count === "number"
              ? { comments: post.comments.summary.total_count }
              : {})
          }
        }
      })
    }
  } satisfies Network
}

/** Facebook from its settings, its uploads in the host's BlobStore and its reels counted in the host's ReelLedger. */
export const build = (settings: FacebookSettings) =>
  Effect.map(Effect.all([BlobStore, ReelLedger]), ([blobs, reels]) => make(settings, blobs, reels))
