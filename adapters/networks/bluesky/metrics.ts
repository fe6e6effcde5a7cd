import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures, pick } from "../shared/figures.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { METRICS_BATCH } from "./config.ts"

const COUNTS = ["likeCount", "repostCount", "replyCount", "quoteCount", "bookmarkCount"]

/**
 * Reads posts' counts with app.bsky.feed.getPosts on the AppView (25 URIs a call, no login: the counts
 * are public). Bluesky counts no views, clicks or watch time; nothing is refused for lack of a scope.
 */
export const make = (appViewUrl: string, gate: RateGate): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request) =>
    Effect.gen(function* () {
      const query = new URLSearchParams()
      for (const p of request.posts) query.append("uris", p.externalId)
      const reply = yield* callForFigures({
        network: "Bluesky",
        gate,
        keys: ["appview"],
        request: {
          method: "GET",
          url: `${appViewUrl.replace(/\/+$/, "")}/xrpc/app.bsky.feed.getPosts?${query}`,
          timeoutMs: 30_000
        },
        notOffered: () => null,
        resetAt: (reply) => {
          const reset = Number(reply.headers.get("ratelimit-reset"))
          return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined
        }
      })
      if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
      const posts = (reply.body as { posts?: unknown })?.posts
      const figures = new Map<string, RawFigures>()
      for (const post of Array.isArray(posts) ? posts : [])
        if (typeof post?.uri === "string") figures.set(post.uri, pick(post, COUNTS))
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
