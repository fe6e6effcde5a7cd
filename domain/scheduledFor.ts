import { Option, Result } from "effect"
import type { LocalTime, ScheduledForInput } from "./contract/planning.ts"
import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { formatUtc, oneYearAfter, parseOffsetTime } from "./time.ts"
import { instantOfInput, isKnownZone, localView, parseLocal } from "./zonedTime.ts"

// `scheduledFor` as a request gives it, to an instant: an ISO 8601 time with an offset, or a local
// time in a zone (the DST rule is zonedTime.ts's). POST /posts, the batch and reschedule all come here.

export const isLocalTime = (value: ScheduledForInput | null | undefined): value is LocalTime =>
  typeof value === "object" && value !== null

/** The zone a local time is read in: its own, else the default (the targets'); None when neither. */
export const zoneOfLocal = (value: LocalTime, defaultZone: string | undefined): string | undefined =>
  value.timeZone ?? defaultZone

/** A local time to an instant by the documented rule (repeated: first; skipped: refused, with a suggestion). */
export const resolveLocalInput = (
  value: LocalTime,
  defaultZone: string | undefined
): Result.Result<number, HeraldError> => {
  const zone = zoneOfLocal(value, defaultZone)
  if (zone === undefined)
    return Result.fail(
      invalidFields(
        ["scheduledFor.timeZone"],
        "scheduledFor.timeZone is needed here: the targets have different time zones (or this action takes no default)."
      )
    )
  if (!isKnownZone(zone))
    return Result.fail(fail("unknown_time_zone", { fields: ["scheduledFor.timeZone"], timeZone: zone }))
  const local = value.local.length > 32 ? Option.none() : parseLocal(value.local)
  if (Option.isNone(local))
    return Result.fail(
      fail(
        "invalid_date",
        { fields: ["scheduledFor.local"], value: value.local.slice(0, 64) },
        "scheduledFor.local must be a local time YYYY-MM-DDTHH:MM[:SS] without an offset."
      )
    )
  const resolved = instantOfInput(local.value, zone)
  if (resolved._tag === "Skipped")
    return Result.fail(
      fail("local_time_skipped", {
        fields: ["scheduledFor"],
        local: value.local,
        timeZone: zone,
        suggestion: { scheduledFor: formatUtc(resolved.suggestion), ...localView(resolved.suggestion, zone) }
      })
    )
  return Result.succeed(resolved.at)
}

/**
 * Parses `scheduledFor` (either form): in the future, under one year ahead. `defaultZone` reads a
 * local time that names no zone.
 */
export const checkScheduledFor = (
  value: ScheduledForInput | null,
  now: number,
  defaultZone?: string
): Result.Result<number | null, HeraldError> => {
  if (value === null) return Result.succeed(null)
  let at: number
  if (isLocalTime(value)) {
    const resolved = resolveLocalInput(value, defaultZone)
    if (Result.isFailure(resolved)) return resolved
    at = resolved.success
  } else {
    // No real time is this long; the parser never sees a huge string.
    const parsed = value.length > 64 ? Option.none() : parseOffsetTime(value)
    if (Option.isNone(parsed)) return Result.fail(fail("invalid_date", { fields: ["scheduledFor"], value }))
    at = parsed.value
  }
  if (at <= now) return Result.fail(fail("scheduled_in_past", { fields: ["scheduledFor"], value }))
  if (at >= oneYearAfter(now)) return Result.fail(fail("scheduled_too_far", { fields: ["scheduledFor"], value }))
  return Result.succeed(at)
}
