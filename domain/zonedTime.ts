import { Option } from "effect"

// Wall-clock time in IANA zones. Every offset comes from the platform's Intl (its tz database): Herald
// keeps no offset table or DST rule of its own. The rule for local times that a DST change skips or
// repeats is here, once (README, "Time zones, queue and bulk").

/** A wall-clock time without a zone: what a person means by "09:00 on 28 March". */
export interface LocalDateTime {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

/** Parses `YYYY-MM-DDTHH:MM[:SS]`, no offset (the zone says where): None when malformed or not a calendar date. */
export const parseLocal = (text: string): Option.Option<LocalDateTime> => {
  const m = localPattern.exec(text)
  if (!m) return Option.none()
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "00"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return Option.none()
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return Option.none()
  return Option.some({ year, month, day, hour, minute, second })
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** `YYYY-MM-DDTHH:MM:SS`, as outputs show a local time beside its UTC instant. */
export const formatLocal = (t: LocalDateTime): string =>
  `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`

/** The local time read as if it were UTC: the one number both sides of an offset are compared in. */
const asUtc = (t: LocalDateTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second)

// One formatter per zone: making one costs tens of microseconds, using one about one.
const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/** Whether the platform knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export const isKnownZone = (zone: string): boolean => {
  if (zone.length === 0 || zone.length > 64) return false
  try {
    formatterFor(zone)
    return true
  } catch {
    return false
  }
}

/** The wall clock of an instant in a zone, as Intl shows it. */
export const wallClock = (epochMillis: number, zone: string): LocalDateTime => {
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of formatterFor(zone).formatToParts(epochMillis))
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value)
  return fields
}

/** The zone's offset from UTC at an instant, in milliseconds: Intl's wall clock minus the instant. */
export const offsetAt = (epochMillis: number, zone: string): number => {
  const whole = epochMillis - (((epochMillis % 1000) + 1000) % 1000)
  return asUtc(wallClock(whole, zone)) - whole
}

/** `+02:00`, `-04:00`, `+05:45`: an offset as ISO 8601 writes it. */
export const formatOffset = (offsetMillis: number): string => {
  const minutes = Math.round(Math.abs(offsetMillis) / 60_000)
  return `${offsetMillis < 0 ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
}

/**
 * What a local time is in a zone: one instant; two when a DST change repeats it (an overlap: first the
 * earlier, on the offset before the change); none when a DST change skips it (a gap), with the instants
 * on either side: `before` reads the time on the offset after the change, `after` on the offset before
 * it (the wall time moved forward by the gap's length, as a clock that was not changed would show).
 */
export type LocalResolution =
  | { readonly _tag: "Exact"; readonly at: number }
  | { readonly _tag: "Repeated"; readonly earlier: number; readonly later: number }
  | { readonly _tag: "Skipped"; readonly before: number; readonly after: number }

/**
 * Resolves a local time through the offsets Intl gives a day either side of it: each is right when
 * the instant it gives has that offset. (No zone changes its offset twice within two days.)
 */
export const resolveLocal = (local: LocalDateTime, zone: string): LocalResolution => {
  const naive = asUtc(local)
  const offsetBefore = offsetAt(naive - DAY_MS, zone)
  const offsetAfter = offsetAt(naive + DAY_MS, zone)
  const valid: Array<number> = []
  for (const offset of offsetBefore === offsetAfter ? [offsetBefore] : [offsetBefore, offsetAfter]) {
    const at = naive - offset
    if (offsetAt(at, zone) === offset && !valid.includes(at)) valid.push(at)
  }
  valid.sort((a, b) => a - b)
  if (valid.length === 1) return { _tag: "Exact", at: valid[0]! }
  if (valid.length === 2) return { _tag: "Repeated", earlier: valid[0]!, later: valid[1]! }
  return { _tag: "Skipped", before: naive - offsetAfter, after: naive - offsetBefore }
}

/**
 * The rule for a time a caller gives (`{local, timeZone}`): a repeated time is its first occurrence;
 * a skipped one is refused (Left, with the instant just past the gap to offer instead). Never moved silently.
 */
export const instantOfInput = (
  local: LocalDateTime,
  zone: string
): { readonly _tag: "At"; readonly at: number } | { readonly _tag: "Skipped"; readonly suggestion: number } => {
  const resolved = resolveLocal(local, zone)
  switch (resolved._tag) {
    case "Exact":
      return { _tag: "At", at: resolved.at }
    case "Repeated":
      return { _tag: "At", at: resolved.earlier }
    case "Skipped":
      return { _tag: "Skipped", suggestion: resolved.after }
  }
}

// Slots recur: the same few local times are resolved again and again (a queue fill walks a year of them).
const slotMemo = new Map<string, number>()
const SLOT_MEMO_MAX = 200_000

/**
 * The rule for a weekly slot's time on one date: a repeated time happens once, at its first
 * occurrence; a skipped one happens once, just past the gap (`after`: 02:30 on a spring-forward
 * night in Berlin is 03:30 CEST). So a slot is never taken twice in a night, nor skipped.
 */
export const instantOfSlot = (local: LocalDateTime, zone: string): number => {
  const key = `${zone}|${asUtc(local)}`
  const known = slotMemo.get(key)
  if (known !== undefined) return known
  const resolved = resolveLocal(local, zone)
  const at = resolved._tag === "Exact" ? resolved.at : resolved._tag === "Repeated" ? resolved.earlier : resolved.after
  if (slotMemo.size >= SLOT_MEMO_MAX) slotMemo.clear()
  slotMemo.set(key, at)
  return at
}

/** An instant as a person reads it in a zone: local time, zone and offset beside the UTC one. */
export interface LocalView {
  readonly local: string
  readonly timeZone: string
  readonly utcOffset: string
}

export const localView = (epochMillis: number, zone: string): LocalView => ({
  local: formatLocal(wallClock(epochMillis, zone)),
  timeZone: zone,
  utcOffset: formatOffset(offsetAt(epochMillis, zone))
})

/** The calendar date `days` after a local date (proleptic Gregorian: calendar arithmetic, no zone). */
export const addDays = (date: Pick<LocalDateTime, "year" | "month" | "day">, days: number) => {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/** 0 = Monday ... 6 = Sunday, of a calendar date. */
export const weekdayOf = (date: Pick<LocalDateTime, "year" | "month" | "day">): number =>
  (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7
