import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import type { Planned } from "../../../domain/contract/planning.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import {
  dailyCapOf,
  firstFreeSlot,
  QueueBook,
  type QueueEntry,
  type QueueTarget,
  type Schedule,
  SLOT_LEAD_MS,
  scheduleOf
} from "../../../domain/schedule.ts"
import { DAY_MS, formatUtc, oneYearAfter } from "../../../domain/time.ts"
import { localView } from "../../../domain/zonedTime.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { cachedWorkspace } from "../auth.ts"

// How a post finds its time in a zone: the zone a local time is read in, and the queue slot a
// `queue: true` post takes. The use cases call these inside their transactions.

/** What planning knows of a workspace: its zone, the accounts' own zones, the schedules. */
export interface PlanningContext {
  readonly workspaceZone: string
  readonly accountZones: ReadonlyMap<string, string>
  readonly schedules: ReadonlyArray<Schedule>
}

export const planningContext = Effect.fnUntraced(function* (workspaceId: string) {
  const repo = yield* ScheduleRepo
  const workspace = yield* cachedWorkspace(workspaceId)
  return {
    workspaceZone: Option.match(workspace, { onNone: () => "UTC", onSome: (w) => w.timeZone }),
    accountZones: new Map((yield* repo.accountZones(workspaceId)).map((z) => [z.accountId, z.timeZone])),
    schedules: yield* repo.list(workspaceId)
  } satisfies PlanningContext
})

/** An account's zone: its own, else the workspace's. */
export const zoneOfAccount = (context: PlanningContext, accountId: string): string =>
  context.accountZones.get(accountId) ?? context.workspaceZone

/** The one zone all these accounts are in; undefined when they differ (a local time must then name its zone). */
export const zoneOfTargets = (context: PlanningContext, accountIds: ReadonlyArray<string>): string | undefined => {
  const found = new Set(accountIds.map((id) => zoneOfAccount(context, id)))
  return found.size === 1 ? [...found][0] : undefined
}

/** The schedule every target queues on, or queue_not_set_up naming the accounts without it. */
export const queueOfTargets = (context: PlanningContext, accountIds: ReadonlyArray<string>) => {
  const first = scheduleOf(context.schedules, accountIds[0] ?? "")
  const outside = accountIds.filter((id) => first === undefined || !first.accountIds.includes(id))
  return first !== undefined && outside.length === 0
    ? Effect.succeed(first)
    : Effect.fail(
        fail("queue_not_set_up", {
          accountIds: outside,
          schedules: accountIds.map((id) => ({
            accountId: id,
            scheduleId: scheduleOf(context.schedules, id)?.id ?? null
          }))
        })
      )
}

export const queueTargets = (accounts: ReadonlyArray<Account>): ReadonlyArray<QueueTarget> =>
  accounts.map((a) => ({ accountId: a.id, dailyCap: dailyCapOf(a.platform) }))

/** The local view of an instant planned in a zone, beside its UTC time. */
export const plannedView = (at: number, zone: string, scheduleId: string | null): Planned => ({
  scheduledFor: formatUtc(at),
  ...localView(at, zone),
  scheduleId
})

/**
 * The queue's state for one request or one batch: each schedule's book read once (from a day back,
 * for the 24-hour caps), and what was placed since added to it, so the posts of a batch see each
 * other. A batch holds the queue lock throughout.
 */
export interface QueueSession {
  /** The workspace's zones and schedules, read once for the session. */
  readonly context: (
    workspaceId: string
  ) => Effect.Effect<PlanningContext, never, Effect.Services<ReturnType<typeof planningContext>>>
  /** Set by a caller that holds the queue's lock for the whole session (a batch). */
  locked: boolean
  /** The schedule's book, read once. */
  readonly book: (schedule: Schedule, now: number) => Effect.Effect<QueueBook, never, ScheduleRepo>
  /** The next slot free for every target, noted in the book (nothing is stored here); queue_full when none. */
  readonly take: (
    schedule: Schedule,
    targets: ReadonlyArray<QueueTarget>,
    now: number
  ) => Effect.Effect<number, HeraldError, ScheduleRepo>
  /** Forgets a placement that was not stored after all (a replayed or refused create). */
  readonly giveBack: (schedule: Schedule, targets: ReadonlyArray<QueueTarget>, at: number) => void
}

export const queueSession = (): QueueSession => {
  const books = new Map<string, QueueBook>()
  // Per schedule and set of accounts: the slot the last placement took (every earlier one is taken for them).
  const cursors = new Map<string, number>()
  const cursorKey = (schedule: Schedule, targets: ReadonlyArray<QueueTarget>) =>
    `${schedule.id}|${targets.map((t) => t.accountId).join(",")}`
  const book = (schedule: Schedule, now: number) =>
    Effect.gen(function* () {
      const known = books.get(schedule.id)
      if (known !== undefined) return known
      const entries = yield* (yield* ScheduleRepo).entries(schedule.workspaceId, schedule.accountIds, now - DAY_MS)
      const fresh = new QueueBook(entries)
      books.set(schedule.id, fresh)
      return fresh
    })
  let context: PlanningContext | undefined
  return {
    locked: false,
    context: (workspaceId) =>
      context !== undefined
        ? Effect.succeed(context)
        : Effect.tap(planningContext(workspaceId), (read) => Effect.sync(() => (context = read))),
    book,
    take: (schedule, targets, now) =>
      Effect.gen(function* () {
        const held = yield* book(schedule, now)
        const from = Math.max(now + SLOT_LEAD_MS, cursors.get(cursorKey(schedule, targets)) ?? 0)
        const at = firstFreeSlot(schedule, targets, held, from, oneYearAfter(now))
        if (at === null) return yield* Effect.fail(fail("queue_full", { scheduleId: schedule.id }))
        for (const t of targets) held.add(t.accountId, at)
        cursors.set(cursorKey(schedule, targets), at)
        return at
      }),
    giveBack: (schedule, targets, at) => {
      const held = books.get(schedule.id)
      for (const t of targets) held?.remove(t.accountId, at)
      cursors.delete(cursorKey(schedule, targets))
    }
  }
}

/** A post's entries at a slot, one per target account. */
export const entriesAt = (
  schedule: Schedule,
  postId: string,
  accountIds: ReadonlyArray<string>,
  at: number
): ReadonlyArray<QueueEntry> =>
  accountIds.map((accountId) => ({
    workspaceId: schedule.workspaceId,
    scheduleId: schedule.id,
    postId,
    accountId,
    slotAt: at
  }))
