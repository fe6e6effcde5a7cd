import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures } from "../shared/figures.ts"
import { makeRateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS } from "./client.ts"
import { METRICS_BATCH, type YouTubeConfig } from "./config.ts"
import { DAILY_REASONS } from "./errors.ts"
import { COST, type Quota } from "./quota.ts"

const STATISTICS = ["viewCount", "likeCount", "favoriteCount", "commentCount"]

const reasonOf = (body: unknown): string | null => {
  const errors = (body as { error?: { errors?: ReadonlyArray<{ reason?: unknown }> } })?.error?.errors
  return Array.isArray(errors) && typeof errors[0]?.reason === "string" ? errors[0].reason : null
}

/**
 * Reads videos' statistics with videos.list?part=statistics&id=... (50 a call, 1 unit from the
 * project's daily 10,000, counted by the same quota as publishing, so reading figures never spends
 * what uploads need past the cap). A token without a scope that reads videos gives NotOffered.
 */
export const make = (settings: YouTubeConfig, quota: Quota): MetricsCapability => {
  // The quota's own gate is consulted first; this one only keeps 429s apart.
  const gate = makeRateGate()
  return {
    batch: METRICS_BATCH,
    read: (request) =>
      Effect.gen(function* () {
        if (request.credentials === null)
          return yield* PublishError.unauthorized({ message: "The YouTube account has no stored access." })
        const wait = yield* quota.waitFor("units", null)
        if (wait > 0)
          return yield* PublishError.rateLimited({
            message: "The project's daily YouTube quota is used up; figures are read again after midnight Pacific.",
            retryAfterMs: wait
          })
        yield* quota.spend("units", COST.list)
        const query = new URLSearchParams({ part: "statistics", id: request.posts.map((p) => p.externalId).join(",") })
        let daily = false
        const reply = yield* callForFigures({
          network: "YouTube",
          gate,
          keys: ["app"],
          request: {
            method: "GET",
            url: `${settings.apiUrl}/youtube/v3/videos?${query}`,
            headers: { authorization: `Bearer ${request.credentials.accessToken}` },
            timeoutMs: CALL_TIMEOUT_MS
          },
          notOffered: (reply, body) => {
            const reason = reasonOf(body)
            if (reply.status === 403 && reason !== null && DAILY_REASONS.has(reason)) daily = true
            return reply.status === 403 && (reason === "insufficientPermissions" || reason === "forbidden")
              ? "The account's YouTube grant does not allow reading its videos (a scope is missing): connect it again."
              : null
          }
        }).pipe(
          Effect.catchIf(
            () => daily,
            () =>
              Effect.flatMap(quota.exhausted("units"), (until) =>
                Effect.flatMap(
                  Effect.clockWith((c) => c.currentTimeMillis),
                  (now) =>
                    PublishError.rateLimited({
                      message: "YouTube says the project's daily quota is used up (quotaExceeded).",
                      retryAfterMs: until - now
                    })
                )
              )
          )
        )
        if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
        const items = (reply.body as { items?: unknown })?.items
        const figures = new Map<string, RawFigures>()
        for (const item of Array.isArray(items) ? items : []) {
          if (typeof item?.id !== "string") continue
          // YouTube gives its counts as strings (unsigned longs).
          const raw: Record<string, number> = {}
          for (const name of STATISTICS) {
            const value = Number(item.statistics?.[name])
            if (item.statistics?.[name] !== undefined && Number.isFinite(value)) raw[name] = value
          }
          figures.set(item.id, raw)
        }
        return { _tag: "Read", figures } satisfies MetricsAnswer
      })
  }
}
