import { Clock, Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type {
  MetricsReading,
  MetricsRefresh,
  MetricsSummary,
  PostMetrics,
  TargetMetrics
} from "../../../domain/contract/metrics.ts"
import { invalidFields } from "../../../domain/errors.ts"
import {
  type CommonFigures,
  dayOf,
  type Figure,
  metricNames,
  type MetricName,
  normalise,
  onDemandFloorMs
} from "../../../domain/metrics.ts"
import { isPlatform, type Platform } from "../../../domain/platforms.ts"
import { formatLocal, isKnownZone, wallClock } from "../../../domain/zonedTime.ts"
import type { Post } from "../../../domain/post.ts"
import { DAY_MS, formatUtc, parseOffsetTime } from "../../../domain/time.ts"
import { type AccountMetricsState, MetricsRepo, type Reading } from "../../ports/MetricsRepo.ts"
import { loadPost } from "../common.ts"

/** A summary spans at most this long (a quarter and a bit: the longest chart the app draws). */
const MAX_SPAN_MS = 92 * DAY_MS

export const readingView = (r: Reading): MetricsReading => ({
  readAt: formatUtc(r.readAt),
  figures: normalise(r.platform, r.raw),
  raw: r.raw
})

const stateOf = (state: AccountMetricsState | undefined, latest: Reading | undefined) =>
  state?.state === "unavailable"
    ? { state: "unavailable" as const, reason: state.reason }
    : latest === undefined
      ? { state: "pending" as const, reason: null }
      : { state: "available" as const, reason: null }

/** The latest figures of each published target of these posts, by post id and account id. */
export const latestMetrics = Effect.fn("latestMetrics")(function* (workspaceId: string, posts: ReadonlyArray<Post>) {
  const published = posts.filter((p) => p.targets.some((t) => t.status === "published"))
  const out = new Map<string, TargetMetrics>()
  if (published.length === 0) return out
  const repo = yield* MetricsRepo
  const readings = yield* repo.latest(
    workspaceId,
    published.map((p) => p.id)
  )
  const accounts = [...new Set(published.flatMap((p) => p.targets.map((t) => t.accountId)))]
  const states = new Map((yield* repo.accountStates(workspaceId, accounts)).map((s) => [s.accountId, s]))
  const byKey = new Map(readings.map((r) => [`${r.postId}/${r.accountId}`, r]))
  for (const post of published)
    for (const t of post.targets) {
      if (t.status !== "published") continue
      const latest = byKey.get(`${post.id}/${t.accountId}`)
      out.set(`${post.id}/${t.accountId}`, {
        ...stateOf(states.get(t.accountId), latest),
        latest: latest === undefined ? null : readingView(latest)
      })
    }
  return out
})

/** GET /posts/{id}/metrics: every reading of each published target, oldest first. */
export const postMetrics = Effect.fn("postMetrics")(function* (actor: Actor, id: string) {
  const post = yield* loadPost(actor, id)
  const repo = yield* MetricsRepo
  const readings = yield* repo.history(actor.workspaceId, post.id)
  const states = new Map(
    (yield* repo.accountStates(
      actor.workspaceId,
      post.targets.map((t) => t.accountId)
    )).map((s) => [s.accountId, s])
  )
  return {
    postId: post.id,
    targets: post.targets
      .filter((t) => t.status === "published")
      .map((t) => {
        const own = readings.filter((r) => r.accountId === t.accountId)
        return {
          accountId: t.accountId,
          platform: t.platform,
          ...stateOf(states.get(t.accountId), own[own.length - 1]),
          readings: own.map(readingView)
        }
      })
  } satisfies PostMetrics
})

/** POST /posts/{id}/metrics/refresh: read the post's figures now, each account at most once per floor. */
export const refreshPostMetrics = Effect.fn("refreshPostMetrics")(function* (actor: Actor, id: string) {
  const post = yield* loadPost(actor, id)
  const now = yield* Clock.currentTimeMillis
  const answer = yield* (yield* MetricsRepo).demand(actor.workspaceId, post.id, now, onDemandFloorMs)
  return {
    queued: answer.queued,
    notBefore: answer.notBefore === null ? null : formatUtc(answer.notBefore)
  } satisfies MetricsRefresh
})

export interface SummaryQuery {
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly accountId?: string | undefined
  readonly platform?: string | undefined
  /** The zone whose days group the posts (an IANA name); UTC when not given. */
  readonly timeZone?: string | undefined
}

const sumFigures = (all: ReadonlyArray<CommonFigures>): CommonFigures => {
  const out = {} as Record<MetricName, Figure>
  for (const name of metricNames) {
    const given = all.map((f) => f[name]).filter((f) => f.value !== null)
    out[name] =
      given.length === 0
        ? { value: null, reason: all[0]?.[name].reason ?? null }
        : { value: given.reduce((n, f) => n + f.value!, 0), reason: null }
  }
  return out
}

/**
 * GET /metrics: per day of publishing (in `timeZone`, else UTC) and per account, the sums of the posts' latest figures.
 * `from`/`to` default to the last 30 days; the span is at most 92 days.
 */
export const metricsSummary = Effect.fn("metricsSummary")(function* (actor: Actor, query: SummaryQuery) {
  const now = yield* Clock.currentTimeMillis
  const bad: Array<string> = []
  const parse = (name: "from" | "to", value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback
    const parsed = parseOffsetTime(value)
    if (Option.isNone(parsed)) bad.push(name)
    return Option.getOrElse(parsed, () => fallback)
  }
  const to = parse("to", query.to, now)
  const from = parse("from", query.from, to - 30 * DAY_MS)
  if (!bad.includes("from") && !bad.includes("to") && (from >= to || to - from > MAX_SPAN_MS)) bad.push("from")
  if (query.platform !== undefined && !isPlatform(query.platform)) bad.push("platform")
  const zone = query.timeZone ?? "UTC"
  if (!isKnownZone(zone))
    return yield* Effect.fail(
      invalidFields(["timeZone"], "timeZone is an IANA time zone name, e.g. Asia/Tokyo or UTC.")
    )
  if (bad.length > 0)
    return yield* Effect.fail(
      invalidFields(bad, "from and to are ISO 8601 times with an offset, from before to, at most 92 days apart.")
    )
  const dayIn = (at: number) => (zone === "UTC" ? dayOf(at) : formatLocal(wallClock(at, zone)).slice(0, 10))
  const readings = yield* (yield* MetricsRepo).published(actor.workspaceId, {
    from,
    to,
    accountId: query.accountId,
    platform: query.platform as Platform | undefined
  })
  const groups = new Map<string, Array<Reading>>()
  for (const r of readings) {
    const key = `${dayIn(r.publishedAt)}|${r.accountId}`
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return {
    from: formatUtc(from),
    to: formatUtc(to),
    timeZone: zone,
    days: [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, group]) => ({
        day: key.slice(0, 10),
        accountId: group[0].accountId,
        platform: group[0].platform,
        posts: group.length,
        figures: sumFigures(group.map((r) => normalise(r.platform, r.raw)))
      }))
  } satisfies MetricsSummary
})
