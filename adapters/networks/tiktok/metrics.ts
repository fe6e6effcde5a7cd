import { Effect } from "effect"
import type { MetricsAnswer, MetricsCapability } from "../../../application/ports/Publishers.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { callForFigures, pick } from "../shared/figures.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { CALL_TIMEOUT_MS } from "./api.ts"
import { METRICS_BATCH, type TikTokConfig } from "./config.ts"
import { codeOf, tiktokMessage } from "./errors.ts"

const COUNTS = ["view_count", "like_count", "comment_count", "share_count"]

/**
 * Reads videos' counts with the Display API's POST /v2/video/query/ (20 ids a call, 600 calls a minute
 * per token). An account connected without the video.list scope (TikTok's scope_not_authorized)
 * gives NotOffered, not a reconnection: publishing still works for it.
 */
export const make = (settings: TikTokConfig, gate: RateGate): MetricsCapability => ({
  batch: METRICS_BATCH,
  read: (request) =>
    Effect.gen(function* () {
      if (request.credentials === null)
        return yield* PublishError.unauthorized({ message: "The TikTok account has no stored access." })
      const reply = yield* callForFigures({
        network: "TikTok",
        gate,
        keys: [`${request.account.externalId}:query`],
        request: {
          method: "POST",
          url: `${settings.apiUrl}/v2/video/query/?fields=id,${COUNTS.join(",")}`,
          headers: {
            authorization: `Bearer ${request.credentials.accessToken}`,
            "content-type": "application/json"
          },
          body: JSON.stringify({ filters: { video_ids: request.posts.map((p) => p.externalId) } }),
          timeoutMs: CALL_TIMEOUT_MS
        },
        notOffered: (reply) =>
          codeOf(reply) === "scope_not_authorized"
            ? `The TikTok account was connected without the video.list scope, which reading its videos' figures needs: connect it again. (${tiktokMessage(reply)})`
            : null
      })
      if (reply._tag === "NotOffered") return reply satisfies MetricsAnswer
      const videos = (reply.body as { data?: { videos?: unknown } })?.data?.videos
      const figures = new Map<string, RawFigures>()
      for (const video of Array.isArray(videos) ? videos : [])
        if (typeof video?.id === "string") figures.set(video.id, pick(video, COUNTS))
      return { _tag: "Read", figures } satisfies MetricsAnswer
    })
})
