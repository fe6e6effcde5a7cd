import { declaredMetricSources, platformLabels } from "./networks.generated.ts"
import type { Platform } from "./platforms.ts"

/** The small common set every network's figures are normalised to. */
export const metricNames = ["views", "likes", "replies", "reposts", "saves", "clicks", "watchTimeSeconds"] as const
export type MetricName = (typeof metricNames)[number]

/** A network's own figures, under its own names, as it answered. */
export type RawFigures = Readonly<Record<string, number | null>>

/** How one common figure is read from a network's raw figures: a sum of raw names, or null with the reason. */
export type MetricSource = { readonly from: ReadonlyArray<string>; readonly note?: string } | { readonly none: string }

/** One common figure of a reading: a value, or null and why. */
export interface Figure {
  readonly value: number | null
  readonly reason: string | null
}

export type CommonFigures = Readonly<Record<MetricName, Figure>>

export const none = (why: string): MetricSource => ({ none: why })
export const from = (...names: ReadonlyArray<string>): MetricSource => ({ from: names })

/**
 * Per network: which raw figure gives each common one, or why none does. This table is the one place
 * the README's table and the API's null reasons come from; raw names are the network's own.
 */
/** A network that declares no sources gives no figures Herald reads. */
const noFigures = (label: string): Record<MetricName, MetricSource> =>
  Object.fromEntries(metricNames.map((n) => [n, none(`Herald reads no figures from ${label}.`)])) as Record<
    MetricName,
    MetricSource
  >

/**
 * Per network: which raw figure gives each common one, or why none does, as its folder declares it
 * (metricSources, through domain/networks.generated.ts). The API's null reasons come from here.
 */
export const metricSourcesOf = (platform: Platform): Record<MetricName, MetricSource> =>
  declaredMetricSources[platform] ?? noFigures(platformLabels[platform])

/**
 * The common figures of one reading: each is the sum of the raw names the table names that the network
 * gave; null with the table's reason when the network has none, or with "not given" when it left them out.
 */
export const normalise = (platform: Platform, raw: RawFigures): CommonFigures => {
  const sources = metricSourcesOf(platform)
  const out = {} as Record<MetricName, Figure>
  for (const name of metricNames) {
    const source = sources[name]
    if ("none" in source) {
      out[name] = { value: null, reason: source.none }
      continue
    }
    const given = source.from.map((n) => raw[n]).filter((v): v is number => typeof v === "number")
    out[name] =
      given.length === 0
        ? { value: null, reason: `The network did not give ${source.from.join(" or ")} for this post.` }
        : { value: given.reduce((a, b) => a + b, 0), reason: null }
  }
  return out
}

/** Refresh after publishing: about 1 h, 24 h, 7 d and 30 d (then only on demand). */
export const refreshOffsetsMs = [3_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000] as const

/** When the next scheduled refresh after `stage` is due (null: none left), counted from publishing. */
export const nextDueAt = (publishedAt: number, stage: number): number | null => {
  const offset = refreshOffsetsMs[stage]
  return offset === undefined ? null : publishedAt + offset
}

/** An on-demand refresh of an account is refused within this long of its last read (the per-account floor). */
export const onDemandFloorMs = 15 * 60_000

/** An account whose analytics the network refused (scope, tier) is asked again only after this long, or on reconnect. */
export const unavailableRetryMs = 7 * 86_400_000

/** The UTC day of an instant, YYYY-MM-DD. */
export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10)
