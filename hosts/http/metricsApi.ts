import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MetricsRefresh, MetricsSummary, PostMetrics } from "../../domain/contract/metrics.ts"
import { apiErrors } from "./errors.ts"
import { Authentication } from "./security.ts"

// What each post did: the networks' figures per target, their history, and sums per day and account.

const e = apiErrors
const Str = Schema.String
const opt = Schema.optional
const id = { id: Str }

export class MetricsGroup extends HttpApiGroup.make("metrics")
  .add(
    HttpApiEndpoint.get("post", "/posts/:id/metrics", { params: id, success: PostMetrics, error: e(401, 404) })
      .annotate(OpenApi.Summary, "Every reading of a post's figures, per target")
      .annotate(
        OpenApi.Description,
        "Figures are read about 1 h, 24 h, 7 d and 30 d after publishing, and on demand. Each reading has the common figures (null with a reason when the network does not give one, never a made-up zero) and the network's own names (raw)."
      ),
    HttpApiEndpoint.post("refresh", "/posts/:id/metrics/refresh", {
      params: id,
      success: MetricsRefresh,
      error: e(401, 404)
    })
      .annotate(OpenApi.Summary, "Read a post's figures now")
      .annotate(
        OpenApi.Description,
        "Makes the post's published targets due for a read at once; an account is read on demand at most once per 15 minutes (notBefore says when again). The readings appear at GET /posts/{id}/metrics within the networks' limits."
      ),
    HttpApiEndpoint.get("summary", "/metrics", {
      query: { from: opt(Str), to: opt(Str), accountId: opt(Str), platform: opt(Str), timeZone: opt(Str) },
      success: MetricsSummary,
      error: e(400, 401)
    })
      .annotate(OpenApi.Summary, "Sums of the latest figures per day of publishing and per account")
      .annotate(
        OpenApi.Description,
        "from and to (ISO 8601 with an offset; default the last 30 days, at most 92 days apart) bound the time the posts were published; accountId and platform narrow it; timeZone (an IANA name, default UTC) says whose days group them."
      )
  )
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "What each published post did on its network: views, likes, replies, reposts, saves, clicks and watch time where the network gives them, with the network's own figures beside."
  ) {}
