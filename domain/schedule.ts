import type { Platform } from "./platforms.ts"
import { networkRules } from "./networkRules.ts"
import { addDays, instantOfSlot, wallClock, weekdayOf } from "./zonedTime.ts"

// Posting queues: a weekly set of slots in a zone, and how queued posts take them. Pure: "now" and
// what is already queued are arguments; the adapters store, the use cases decide when.

export const weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const
export type Weekday = (typeof weekdays)[number]

/** One weekly slot: a day of the week and a wall-clock time (`HH:MM`) in the schedule's zone. */
export interface WeeklySlot {
  readonly day: Weekday
  readonly time: string
}

export interface Schedule {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  /** The accounts that queue on it; an account is in one schedule at most. */
  readonly accountIds: ReadonlyArray<string>
  readonly timeZone: string
  readonly slots: ReadonlyArray<WeeklySlot>
  /** Set while paused: queued posts keep their order but do not go out until it resumes. */
  readonly pausedAt: number | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** One target account of a queued post at its slot (a post to three accounts holds three entries). */
export interface QueueEntry {
  readonly workspaceId: string
  readonly scheduleId: string
  readonly postId: string
  readonly accountId: string
  readonly slotAt: number
}

export const MAX_SLOTS = 336
export const MAX_SCHEDULES = 50
const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
/** A slot is taken only when it is at least this far ahead, so a queued post is never due as it is created. */
export const SLOT_LEAD_MS = 60 * 1000

const timePattern = /^([01]\d|2[0-3]):([0-5]\d)$/
export const isSlotTime = (time: string): boolean => timePattern.test(time)

/** The slots in week order, duplicates dropped: how a schedule is stored and shown. */
export const normalizeSlots = (slots: ReadonlyArray<WeeklySlot>): ReadonlyArray<WeeklySlot> => {
  const seen = new Set<string>()
  const out: Array<WeeklySlot> = []
  for (const slot of slots) {
    const key = `${weekdays.indexOf(slot.day)}${slot.time}`
    if (!seen.has(key)) {
      seen.add(key)
      out.push(slot)
    }
  }
  return out.sort((a, b) => weekdays.indexOf(a.day) - weekdays.indexOf(b.day) || a.time.localeCompare(b.time))
}

/**
 * The schedule's slot instants from `from` (inclusive) to `until` (exclusive), in order, walked a
 * local day at a time. Two slots landing on one instant (one skipped forward onto another) are one.
 */
export function* slotInstants(
  schedule: Pick<Schedule, "timeZone" | "slots">,
  from: number,
  until: number
): Generator<number> {
  if (schedule.slots.length === 0) return
  const byDay: Array<Array<{ hour: number; minute: number }>> = weekdays.map(() => [])
  for (const slot of normalizeSlots(schedule.slots))
    byDay[weekdays.indexOf(slot.day)]!.push({ hour: Number(slot.time.slice(0, 2)), minute: Number(slot.time.slice(3)) })
  // A day early: a slot late on the day before `from`'s local date may still lie ahead of it (never in practice, cheap).
  let date = addDays(wallClock(from, schedule.timeZone), -1)
  let last = Number.NEGATIVE_INFINITY
  while (true) {
    const times = byDay[weekdayOf(date)]!
    for (const { hour, minute } of times) {
      const at = instantOfSlot({ ...date, hour, minute, second: 0 }, schedule.timeZone)
      if (at >= until) return
      if (at >= from && at > last) {
        last = at
        yield at
      }
    }
    // Past the end by more than a day of local time: nothing later can come before `until`.
    if (Date.UTC(date.year, date.month - 1, date.day) - 2 * DAY_MS > until) return
    date = addDays(date, 1)
  }
}

/** The most posts a network takes from one account in any 24 hours, from the rules table; null: no cap known. */
export const dailyCapOf = (platform: Platform): number | null => networkRules[platform].postsPer24Hours ?? null

/** A target of a post to be queued: its account and that network's cap. */
export interface QueueTarget {
  readonly accountId: string
  readonly dailyCap: number | null
}

/** The index of the first element of a sorted list that is at least `value`. */
const lowerBound = (list: ReadonlyArray<number>, value: number): number => {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (list[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * What is queued already, per account: the slot instants held, sorted. A fill adds to it as it places,
 * so the posts of one batch see each other.
 */
export class QueueBook {
  private readonly held = new Map<string, Array<number>>()
  private readonly taken = new Set<string>()
  constructor(entries: Iterable<Pick<QueueEntry, "accountId" | "slotAt">> = []) {
    for (const e of entries) this.add(e.accountId, e.slotAt)
  }
  add(accountId: string, at: number): void {
    const key = `${accountId}|${at}`
    if (this.taken.has(key)) return
    this.taken.add(key)
    const list = this.held.get(accountId) ?? []
    list.splice(lowerBound(list, at), 0, at)
    this.held.set(accountId, list)
  }
  remove(accountId: string, at: number): void {
    if (!this.taken.delete(`${accountId}|${at}`)) return
    const list = this.held.get(accountId)!
    list.splice(list.indexOf(at), 1)
  }
  isTaken(accountId: string, at: number): boolean {
    return this.taken.has(`${accountId}|${at}`)
  }
  /** Whether one more post at `at` keeps every 24 hours that include it within `cap` for this account. */
  fitsCap(accountId: string, at: number, cap: number): boolean {
    const list = this.held.get(accountId)
    if (list === undefined || list.length < cap) return true
    const near: Array<number> = []
    for (let i = lowerBound(list, at - DAY_MS + 1); i < list.length && list[i]! < at + DAY_MS; i++) near.push(list[i]!)
    if (near.length < cap) return true
    const times = [...near, at].sort((a, b) => a - b)
    // Each window [start, start + 24 h) that holds `at` starts at one of the times at or before it.
    for (let i = 0; i < times.length && times[i]! <= at; i++) {
      let n = 0
      for (let j = i; j < times.length && times[j]! < times[i]! + DAY_MS; j++) n++
      if (times[i]! + DAY_MS > at && n > cap) return false
    }
    return true
  }
}

/**
 * The first slot from `from` free for every target (none of them holds it) and within every target
 * network's cap: one post, one time, for all its accounts. Null when none is left before `until`.
 */
export const firstFreeSlot = (
  schedule: Pick<Schedule, "timeZone" | "slots">,
  targets: ReadonlyArray<QueueTarget>,
  book: QueueBook,
  from: number,
  until: number
): number | null => {
  for (const at of slotInstants(schedule, from, until)) {
    if (targets.some((t) => book.isTaken(t.accountId, at))) continue
    if (targets.every((t) => t.dailyCap === null || book.fitsCap(t.accountId, at, t.dailyCap))) return at
  }
  return null
}

/** The schedule an account queues on, if any. */
export const scheduleOf = (schedules: ReadonlyArray<Schedule>, accountId: string): Schedule | undefined =>
  schedules.find((s) => s.accountIds.includes(accountId))
