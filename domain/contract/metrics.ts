import { Schema } from "effect"
import { Platform, Time } from "./postParts.ts"

// What each published post did: the network's figures as Herald shows them (GET /posts/{id}, /posts/{id}/metrics, /metrics).

const Str = Schema.String

export const Figure = Schema.Struct({
  value: Schema.NullOr(Schema.Number),
  reason: Schema.NullOr(Str).annotate({
    description: "Why value is null: the network does not give it, or left it out"
  })
}).annotate({ identifier: "MetricFigure" })

/** The common set, the same for every network (domain/metrics.ts metricNames). */
export const CommonFigures = Schema.Struct({
  views: Figure,
  likes: Figure,
  replies: Figure,
  reposts: Figure,
  saves: Figure,
  clicks: Figure,
  watchTimeSeconds: Figure
}).annotate({
  identifier: "CommonFigures",
  description:
    "views: views or impressions as the network counts them; replies: replies or comments; reposts: reposts, shares or quotes; saves: saves or bookmarks; clicks: link clicks; watchTimeSeconds: total video watch time"
})

export const MetricsReading = Schema.Struct({
  readAt: Time,
  figures: CommonFigures,
  raw: Schema.Record(Str, Schema.NullOr(Schema.Number)).annotate({
    description: "The network's own figures under its own names, as it answered"
  })
}).annotate({ identifier: "MetricsReading" })
export type MetricsReading = typeof MetricsReading.Type

export const MetricsState = Schema.Literals(["pending", "available", "unavailable"]).annotate({
  identifier: "MetricsState",
  description:
    "pending: not read yet; unavailable: the network refuses this account's figures (reason says why: a scope, an access tier)"
})

/** A published target's latest figures, carried by GET /posts/{id}. */
export const TargetMetrics = Schema.Struct({
  state: MetricsState,
  reason: Schema.NullOr(Str),
  latest: Schema.NullOr(MetricsReading)
}).annotate({ identifier: "TargetMetrics" })
export type TargetMetrics = typeof TargetMetrics.Type

export const PostMetrics = Schema.Struct({
  postId: Str,
  targets: Schema.Array(
    Schema.Struct({
      accountId: Str,
      platform: Platform,
      state: MetricsState,
      reason: Schema.NullOr(Str),
      readings: Schema.Array(MetricsReading).annotate({ description: "Oldest first" })
    }).annotate({ identifier: "TargetMetricsHistory" })
  )
}).annotate({ identifier: "PostMetrics" })
export type PostMetrics = typeof PostMetrics.Type

export const MetricsRefresh = Schema.Struct({
  queued: Schema.Int.annotate({ description: "Targets due for a read now" }),
  notBefore: Schema.NullOr(Time).annotate({
    description: "Some accounts were read on demand lately: they may be asked again from then"
  })
}).annotate({ identifier: "MetricsRefresh" })
export type MetricsRefresh = typeof MetricsRefresh.Type

export const MetricsDay = Schema.Struct({
  day: Str.annotate({ description: "The day the posts were published in the summary's timeZone, YYYY-MM-DD" }),
  accountId: Str,
  platform: Platform,
  posts: Schema.Int.annotate({ description: "Published targets of that day with figures read" }),
  figures: CommonFigures
}).annotate({
  identifier: "MetricsDay",
  description: "figures: sums of the posts' latest figures; null when none of them gave it"
})

export const MetricsSummary = Schema.Struct({
  from: Time,
  to: Time,
  timeZone: Str.annotate({ description: "The zone whose days group the posts: the query's, else UTC" }),
  days: Schema.Array(MetricsDay)
}).annotate({ identifier: "MetricsSummary" })
export type MetricsSummary = typeof MetricsSummary.Type
