import { Effect, Schema } from "effect"
import { metricsSummary, postMetrics, refreshPostMetrics } from "../../../application/usecases/metrics/query.ts"
import { MetricsSummary, PostMetrics } from "../../../domain/contract/metrics.ts"
import { tool } from "../tool.ts"

// What each post did, as tools (the REST use cases of GET /posts/{id}/metrics and GET /metrics).

export const getPostMetricsTool = tool({
  name: "get_post_metrics",
  title: "Read what a published post did",
  description: [
    "Every reading of a post's figures per target (read about 1 h, 24 h, 7 d and 30 d after publishing): views, likes, replies, reposts, saves, clicks and watch time, each null with a reason when the network does not give it, plus the network's own figures (raw).",
    "refresh: true also asks for a read now (an account at most once per 15 minutes); the new reading shows on a later call.",
    "A target whose network refuses the account's figures (a missing scope, an access tier) says state: unavailable with the reason."
  ].join(" "),
  input: Schema.Struct({
    postId: Schema.String.annotate({ description: "The post's id (post_...)" }),
    refresh: Schema.optionalKey(Schema.Boolean)
  }),
  output: PostMetrics,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (args, call) =>
    args.refresh === true
      ? Effect.andThen(refreshPostMetrics(call.actor, args.postId), postMetrics(call.actor, args.postId))
      : postMetrics(call.actor, args.postId)
})

export const getMetricsTool = tool({
  name: "get_metrics",
  title: "Sum the figures per day and account",
  description:
    "Per day of publishing (in timeZone, an IANA name; UTC by default) and per account, the sums of the posts' latest figures (null when none of them gave one). from/to are ISO 8601 with an offset (default the last 30 days, at most 92 days apart); accountId and platform narrow it.",
  input: Schema.Struct({
    from: Schema.optionalKey(Schema.String),
    to: Schema.optionalKey(Schema.String),
    accountId: Schema.optionalKey(Schema.String),
    platform: Schema.optionalKey(Schema.String),
    timeZone: Schema.optionalKey(Schema.String)
  }),
  output: MetricsSummary,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, call) => metricsSummary(call.actor, args)
})

export const metricsTools = [getPostMetricsTool, getMetricsTool]
