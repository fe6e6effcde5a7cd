import { Effect, Option } from "effect"
import { BlobStore, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Network } from "../../../application/ports/Network.ts"
import { makeMetaLogin } from "../meta/auth.ts"
import type { MetaAppConfig } from "../meta/config.ts"
import { GRAPH_TIMEOUT_MS, makeGraph } from "../meta/graph.ts"
import { insightsFigures, makeInsights } from "../meta/insights.ts"
import { makeFacebookLogin } from "../meta/pages.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { facebookScopes, INSIGHTS_METRICS, instagramScopes } from "./config.ts"
import * as InstagramConnector from "./InstagramConnector.ts"
import * as InstagramPublisher from "./InstagramPublisher.ts"

export interface InstagramSettings {
  /** Instagram Login's app (INSTAGRAM_*), if configured. */
  readonly instagram: Option.Option<MetaAppConfig>
  /** Facebook Login's app (FACEBOOK_*), if configured: accounts linked to Pages. */
  readonly facebook: Option.Option<MetaAppConfig>
}

/** The Instagram network on these apps (at least one), its uploads fetched by Meta from `blobs`' URLs. */
export const make = (settings: InstagramSettings, blobs: BlobStoreShape) => {
  const gate = makeRateGate()
  const ig = Option.getOrNull(settings.instagram)
  const fb = Option.getOrNull(settings.facebook)
  const igGraph =
    ig === null
      ? null
      : makeGraph({ network: "Instagram", apiUrl: ig.apiUrl, version: ig.version, gate, appSecret: ig.clientSecret })
  const fbGraph =
    fb === null
      ? null
      : makeGraph({ network: "Instagram", apiUrl: fb.apiUrl, version: fb.version, gate, appSecret: fb.clientSecret })
  const connector = InstagramConnector.make({
    instagram:
      ig === null
        ? null
        : {
            login: makeMetaLogin("Instagram", { ...ig, scopes: instagramScopes, timeoutMs: GRAPH_TIMEOUT_MS }),
            graph: igGraph!
          },
    facebook: fb === null ? null : makeFacebookLogin(fb, fbGraph!, facebookScopes, GRAPH_TIMEOUT_MS)
  })
  const publisher = {
    ...InstagramPublisher.make({ hosts: { instagram: igGraph, facebook: fbGraph }, blobs }),
    metrics: makeInsights({
      network: "Instagram",
      graphOf: (request) => (request.credentials?.extra?.login === "facebook" ? fbGraph : igGraph),
      permission: "instagram_business_manage_insights (Instagram Login) or instagram_manage_insights (Facebook Login)",
      path: (id) => `/${id}/insights`,
      params: { metric: INSIGHTS_METRICS.join(",") },
      figuresOf: insightsFigures
    })
  }
  return { platform: "instagram", connector, publisher } satisfies Network
}

/** The network from its settings, its uploads in the host's BlobStore. */
export const build = (settings: InstagramSettings) => Effect.map(BlobStore, (blobs) => make(settings, blobs))
