import { Clock, Effect } from "effect"
import type { RateGate } from "../shared/rateGate.ts"

/** YouTube's quota days end at midnight Pacific time. */
const TIME_ZONE = "America/Los_Angeles"

const offsetMinutes = (at: number): number => {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const found = /GMT([+-])(\d{2}):(\d{2})/.exec(name)
  return found === null ? 0 : (found[1] === "-" ? -1 : 1) * (Number(found[2]) * 60 + Number(found[3]))
}

/** The Pacific date of `at` (YYYY-MM-DD): the quota day it counts against. */
export const pacificDay = (at: number): string => new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE }).format(at)

/** The first midnight Pacific time after `at` (epoch ms), daylight saving included. */
export const pacificMidnightAfter = (at: number): number => {
  const [y, m, d] = pacificDay(at).split("-").map(Number)
  const guess = Date.UTC(y, m - 1, d + 1) - offsetMinutes(at) * 60_000
  return Date.UTC(y, m - 1, d + 1) - offsetMinutes(guess) * 60_000
}

/** Units each call costs (YouTube Data API quota costs; videos.insert draws on its own bucket of uploads). */
export const COST = { list: 1, thumbnail: 50, comment: 50, delete: 50 } as const

export interface QuotaUse {
  readonly uploads: number
  readonly units: number
  /** When the quota day ends (midnight Pacific). */
  readonly resetsAt: number
}

const APP_UPLOADS = "app:uploads"
const APP_UNITS = "app:units"

/**
 * The project's daily YouTube quota as this process has spent it, per Pacific day: uploads and
 * units counted before each call; when a count reaches its cap, or YouTube answers quotaExceeded,
 * the bucket is closed until midnight Pacific and calls wait without reaching YouTube.
 */
export const makeQuota = (gate: RateGate, caps: { readonly uploads: number; readonly units: number }) => {
  let day = ""
  let uploads = 0
  let units = 0
  const roll = (now: number) => {
    const today = pacificDay(now)
    if (today !== day) {
      day = today
      uploads = 0
      units = 0
    }
  }
  return {
    /** Milliseconds until a call of this kind may go (0: now). */
    waitFor: (kind: "upload" | "units", channel: string | null) =>
      gate.waitFor(
        kind === "upload" ? [APP_UPLOADS, ...(channel === null ? [] : [`${channel}:uploads`])] : [APP_UNITS]
      ),
    /** Counts a call about to be made; closes its bucket until the reset when the cap is reached. */
    spend: (kind: "upload" | "units", cost = 1) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        roll(now)
        if (kind === "upload") uploads += 1
        else units += cost
        if (uploads >= caps.uploads) yield* gate.closeUntil(APP_UPLOADS, pacificMidnightAfter(now))
        if (units >= caps.units) yield* gate.closeUntil(APP_UNITS, pacificMidnightAfter(now))
      }),
    /** YouTube says a bucket is used up (the project's, or a channel's upload limit): closed until midnight Pacific. */
    exhausted: (key: "uploads" | "units" | { readonly channelUploads: string }) =>
      Effect.gen(function* () {
        const until = pacificMidnightAfter(yield* Clock.currentTimeMillis)
        yield* gate.closeUntil(
          key === "uploads" ? APP_UPLOADS : key === "units" ? APP_UNITS : `${key.channelUploads}:uploads`,
          until
        )
        return until
      }),
    use: Effect.map(Clock.currentTimeMillis, (now): QuotaUse => {
      roll(now)
      return { uploads, units, resetsAt: pacificMidnightAfter(now) }
    }),
    caps
  }
}

export type Quota = ReturnType<typeof makeQuota>
