import { Clock, Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures, pick } from "../shared/figures.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS } from "./api.ts"
import { METRICS_BATCH, type PinterestConfig } from "./config.ts"

const TYPES = ["IMPRESSION", "SAVE", "PIN_CLICK", "OUTBOUND_CLICK"]
/** Pin analytics reach back 90 days at most. */
const WINDOW_MS = 89 * 86_400_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * Reads a pin's figures with GET /v5/pins/{id}/analytics, summed from the day it was published (or
 * 90 days back, Pinterest's limit) to today; the per-user read limit honoured from its 429. An account
 * Pinterest gives no analytics for (403: not a business account) gives NotOffered.
 */
export const make = (settings: PinterestConfig, gate: RateGate): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request) =>
    Effect.gen(function* () {
      if (request.credentials === null)
        return yield* PublishError.unauthorized({ message: "The Pinterest account has no stored access." })
      const now = yield* Clock.currentTimeMillis
      const figures = new Map<string, RawFigures>()
      for (const post of request.posts) {
        const query = new URLSearchParams({
          start_date: day(Math.max(post.publishedAt, now - WINDOW_MS)),
          end_date: day(now),
          metric_types: TYPES.join(",")
        })
        const reply = yield* callForFigures({
          network: "Pinterest",
          gate,
          keys: [`${request.account.externalId}:org_read`],
          request: {
            method: "GET",
            url: `${settings.apiUrl}/v5/pins/${encodeURIComponent(post.externalId)}/analytics?${query}`,
            headers: { authorization: `Bearer ${request.credentials.accessToken}` },
            timeoutMs: CALL_TIMEOUT_MS
          },
          notOffered: (reply, body) =>
            reply.status === 403
              ? `Pinterest gives no pin analytics for this account (a business account is needed): ${String((body as { message?: unknown })?.message ?? "")}`.trim()
              : null,
          resetAt: (reply) => {
            const seconds = Number(reply.headers.get("x-ratelimit-reset"))
            return Number.isFinite(seconds) && seconds > 0 ? now + seconds * 1000 : undefined
          }
        }).pipe(
          // A pin taken down is simply not measured.
          Effect.catchIf(
            (e) => e.reason._tag === "Refused" && e.message.includes("HTTP 404"),
            () => Effect.succeed(null)
          )
        )
        if (reply === null) continue
        if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
        const summary = (reply.body as { all?: { summary_metrics?: unknown } })?.all?.summary_metrics
        figures.set(post.externalId, pick(summary, TYPES))
      }
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
