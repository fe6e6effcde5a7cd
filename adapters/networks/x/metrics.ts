import { Clock, Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures, pick } from "../shared/figures.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS } from "./client.ts"
import { METRICS_BATCH, type XConfig } from "./config.ts"

/** Non-public figures (link clicks) exist only for posts made within the last 30 days. */
const NON_PUBLIC_MS = 30 * 86_400_000

const PUBLIC = ["retweet_count", "reply_count", "like_count", "quote_count", "bookmark_count", "impression_count"]
const NON_PUBLIC = ["url_link_clicks", "user_profile_clicks"]

interface TweetRow {
  readonly id?: unknown
  readonly public_metrics?: unknown
  readonly non_public_metrics?: unknown
}

/**
 * Reads posts' figures with GET /2/tweets?ids=...&tweet.fields=public_metrics,non_public_metrics (one
 * call per 100 posts, X's per-user 15-minute window honoured); an app whose access level does not
 * include reading posts (X's client-forbidden problem) gives NotOffered.
 */
export const make = (settings: XConfig, gate: RateGate): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request) =>
    Effect.gen(function* () {
      if (request.credentials === null)
        return yield* PublishError.unauthorized({ message: "The X account has no stored access." })
      const now = yield* Clock.currentTimeMillis
      const recent = request.posts.every((p) => now - p.publishedAt < NON_PUBLIC_MS)
      const query = new URLSearchParams({
        ids: request.posts.map((p) => p.externalId).join(","),
        "tweet.fields": recent ? "public_metrics,non_public_metrics" : "public_metrics"
      })
      const reply = yield* callForFigures({
        network: "X",
        gate,
        keys: [`${request.account.externalId}:lookup`],
        request: {
          method: "GET",
          url: `${settings.apiUrl}/2/tweets?${query}`,
          headers: { authorization: `Bearer ${request.credentials.accessToken}` },
          timeoutMs: CALL_TIMEOUT_MS
        },
        notOffered: (reply, body) => {
          const problem = body as { type?: unknown; reason?: unknown; detail?: unknown } | undefined
          return reply.status === 403 &&
            (String(problem?.type ?? "").includes("client-forbidden") || problem?.reason === "client-not-enrolled")
            ? `X's access level for Herald's app does not include reading posts' figures: ${String(problem?.detail ?? "")}`.trim()
            : null
        },
        resetAt: (reply) => {
          const reset = Number(reply.headers.get("x-rate-limit-reset"))
          return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined
        }
      })
      if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
      const rows = ((reply.body as { data?: unknown })?.data ?? []) as ReadonlyArray<TweetRow>
      const figures = new Map<string, RawFigures>()
      for (const row of Array.isArray(rows) ? rows : [])
        if (typeof row.id === "string")
          figures.set(row.id, { ...pick(row.public_metrics, PUBLIC), ...pick(row.non_public_metrics, NON_PUBLIC) })
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
