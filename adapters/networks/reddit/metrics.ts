import { Clock, Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures, pick } from "../shared/figures.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS } from "./api.ts"
import { METRICS_BATCH, type RedditConfig } from "./config.ts"
import { resetAt } from "./errors.ts"

export const FIGURES = ["score", "num_comments", "upvote_ratio"] as const

/**
 * Reads posts' figures with GET /api/info?id=t3_a,t3_b (up to 100 fullnames a call): score,
 * comments and upvote ratio. A post Reddit no longer gives, or one deleted or removed, is taken down.
 */
export const make = (settings: RedditConfig, gate: RateGate): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request) =>
    Effect.gen(function* () {
      if (request.credentials === null)
        return yield* PublishError.unauthorized({ message: "The Reddit account has no stored access." })
      const ids = request.posts.map((p) => p.externalId).filter((id) => id.startsWith("t3_"))
      const figures = new Map<string, RawFigures>()
      if (ids.length === 0) return { _tag: "Read", figures } satisfies MetricsAnswer
      const now = yield* Clock.currentTimeMillis
      const reply = yield* callForFigures({
        network: "Reddit",
        gate,
        keys: [request.account.username],
        request: {
          method: "GET",
          url: `${settings.apiUrl}/api/info?id=${ids.join(",")}&raw_json=1`,
          headers: { authorization: `bearer ${request.credentials.accessToken}`, "user-agent": settings.userAgent },
          timeoutMs: CALL_TIMEOUT_MS
        },
        notOffered: () => null,
        resetAt: (r) => resetAt(r.headers, now)
      })
      if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
      const children = (reply.body as { data?: { children?: Array<{ data?: Record<string, unknown> }> } })?.data
        ?.children
      for (const child of children ?? []) {
        const data = child.data ?? {}
        if (typeof data.name !== "string" || data.removed_by_category != null) continue
        figures.set(data.name, pick(data, FIGURES))
      }
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
