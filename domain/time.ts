import { Option } from "effect"

// Strict ISO 8601: a date, a time, optional fraction, and an offset (Z or ±hh:mm / ±hhmm). No offset, no time.
const isoWithOffset = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})$/

/** Parses an input time to epoch milliseconds; None when malformed or without an offset. */
export const parseOffsetTime = (input: string): Option.Option<number> => {
  const m = isoWithOffset.exec(input.trim())
  if (!m) return Option.none()
  const [, y, mo, d, h, mi, s = "00", , offset] = m
  const month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s)
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return Option.none()
  const daysInMonth = new Date(Date.UTC(Number(y), month, 0)).getUTCDate()
  if (day > daysInMonth) return Option.none()
  if (offset !== "Z" && offset !== "z") {
    const digits = offset.replace(":", "")
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return Option.none()
  }
  const millis = Date.parse(input.trim().replace(/z$/, "Z"))
  return Number.isNaN(millis) ? Option.none() : Option.some(millis)
}

// The last two answers are kept: a create formats its own instant and its scheduled time a dozen times.
let newest = { millis: Number.NaN, text: "" }
let previous = newest

/** Output format everywhere: UTC, milliseconds, `Z`. */
export const formatUtc = (epochMillis: number): string => {
  if (newest.millis === epochMillis) return newest.text
  if (previous.millis === epochMillis) return previous.text
  previous = newest
  newest = { millis: epochMillis, text: new Date(epochMillis).toISOString() }
  return newest.text
}

/** The UTC calendar month a moment falls in, as `YYYY-MM` (the usage period). */
export const monthOf = (epochMillis: number): string => formatUtc(epochMillis).slice(0, 7)

export const DAY_MS = 24 * 60 * 60 * 1000

/** "Under one year ahead": the same instant one calendar year later is already too far. */
export const oneYearAfter = (epochMillis: number): number => {
  const d = new Date(epochMillis)
  d.setUTCFullYear(d.getUTCFullYear() + 1)
  return d.getTime()
}
