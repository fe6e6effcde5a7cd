import { Effect } from "effect"
import type { Account } from "../../../domain/account.ts"
import type { Actor } from "../../../domain/apiKey.ts"
import type {
  PutSchedulesRequest,
  ScheduleInput,
  Schedules,
  SchedulesChanged,
  ScheduleView
} from "../../../domain/contract/planning.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import {
  MAX_SCHEDULES,
  MAX_SLOTS,
  isSlotTime,
  normalizeSlots,
  type Schedule,
  slotInstants
} from "../../../domain/schedule.ts"
import { checkText } from "../../../domain/text.ts"
import { formatUtc, oneYearAfter } from "../../../domain/time.ts"
import { isKnownZone, localView } from "../../../domain/zonedTime.ts"
import { AccountRepo } from "../../ports/AccountRepo.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { Store } from "../../ports/Store.ts"
import { now } from "../common.ts"
import { emit, newEvent } from "../webhooks/events.ts"
import { relayQueues } from "./relay.ts"
import { type PlanningContext, planningContext, zoneOfAccount } from "./placement.ts"

// GET/PUT /schedules, and pausing a queue: the workspace's posting schedules and accounts' own zones.
// A change lays the queued posts of a changed schedule again, in their order, on its new slots.

const NEXT_SLOTS = 5

export const scheduleView = (s: Schedule, at: number): ScheduleView => {
  const next: Array<ScheduleView["nextSlots"][number]> = []
  for (const slot of slotInstants(s, at, oneYearAfter(at))) {
    next.push({ at: formatUtc(slot), ...localView(slot, s.timeZone) })
    if (next.length === NEXT_SLOTS) break
  }
  return {
    id: s.id,
    name: s.name,
    accountIds: s.accountIds,
    timeZone: s.timeZone,
    slots: s.slots,
    paused: s.pausedAt !== null,
    pausedAt: s.pausedAt === null ? null : formatUtc(s.pausedAt),
    nextSlots: next,
    createdAt: formatUtc(s.createdAt),
    updatedAt: formatUtc(s.updatedAt)
  }
}

const schedulesView = (context: PlanningContext, accounts: ReadonlyArray<Account>, at: number): Schedules => ({
  timeZone: context.workspaceZone,
  schedules: context.schedules.map((s) => scheduleView(s, at)),
  accounts: accounts.map((a) => ({
    accountId: a.id,
    timeZone: context.accountZones.get(a.id) ?? null,
    effectiveTimeZone: zoneOfAccount(context, a.id),
    scheduleId: context.schedules.find((s) => s.accountIds.includes(a.id))?.id ?? null
  }))
})

export const getSchedules = Effect.fn("getSchedules")(function* (actor: Actor) {
  const at = yield* now
  const context = yield* planningContext(actor.workspaceId)
  const accounts = yield* (yield* AccountRepo).listByWorkspace(actor.workspaceId)
  return schedulesView(context, accounts, at)
})

/**
 * Changing schedules moves approved posts: a person, or a key that is not asks-first (an asks-first
 * key queues posts and reads its queues; a person approved those times).
 */
export const requireQueueManager = (actor: Actor): Effect.Effect<void, HeraldError> =>
  actor.kind === "key" && actor.requireApproval
    ? Effect.fail(
        fail(
          "approval_requires_human",
          { action: "change_queue" },
          "An asks-first key cannot change posting schedules or queues: they move posts a person approved."
        )
      )
    : Effect.void

/** The input's rules beyond its shape: zones, slots, names, accounts of the workspace, one schedule each. */
const checkInput = (
  body: PutSchedulesRequest,
  accounts: ReadonlyArray<Account>,
  existing: ReadonlyArray<Schedule>
): HeraldError | null => {
  if (body.schedules.length > MAX_SCHEDULES)
    return invalidFields(["schedules"], `A workspace has at most ${MAX_SCHEDULES} schedules.`)
  const known = new Set(accounts.map((a) => a.id))
  const seen = new Set<string>()
  const ids = new Set<string>()
  for (const [i, s] of body.schedules.entries()) {
    if (s.id !== undefined) {
      if (!existing.some((e) => e.id === s.id)) return fail("schedule_not_found", { scheduleId: s.id })
      if (ids.has(s.id)) return invalidFields(["schedules.id"], `schedules[${i}].id appears twice.`)
      ids.add(s.id)
    }
    if (s.name !== undefined && (s.name.length > 100 || checkText(s.name, { kind: "label", max: 100 }) !== null))
      return invalidFields(["schedules.name"], `schedules[${i}].name is one line of at most 100 characters.`)
    if (s.accountIds.length === 0 || s.accountIds.length > 50)
      return invalidFields(["schedules.accountIds"], `schedules[${i}].accountIds must hold 1-50 account ids.`)
    const missing = s.accountIds.filter((id) => !known.has(id))
    if (missing.length > 0) return fail("account_not_found", { accountIds: missing })
    for (const id of s.accountIds) {
      if (seen.has(id))
        return invalidFields(["schedules.accountIds"], `Account ${id} is in two schedules; an account queues on one.`)
      seen.add(id)
    }
    if (s.slots.length === 0 || s.slots.length > MAX_SLOTS)
      return invalidFields(["schedules.slots"], `schedules[${i}].slots must hold 1-${MAX_SLOTS} weekly slots.`)
    const badTime = s.slots.find((slot) => !isSlotTime(slot.time))
    if (badTime !== undefined)
      return invalidFields(["schedules.slots.time"], `schedules[${i}]: "${badTime.time.slice(0, 16)}" is not HH:MM.`)
    if (s.timeZone !== undefined && !isKnownZone(s.timeZone))
      return fail("unknown_time_zone", { fields: ["schedules.timeZone"], timeZone: s.timeZone.slice(0, 64) })
  }
  for (const [accountId, zone] of Object.entries(body.accountTimeZones ?? {})) {
    if (!known.has(accountId)) return fail("account_not_found", { accountIds: [accountId] })
    if (zone !== null && !isKnownZone(zone))
      return fail("unknown_time_zone", { fields: ["accountTimeZones"], timeZone: zone.slice(0, 64) })
  }
  return null
}

/** The schedule as PUT gives it, over the one it changes (if any). */
const scheduleFrom = Effect.fnUntraced(function* (
  input: ScheduleInput,
  existing: Schedule | undefined,
  context: PlanningContext,
  workspaceId: string,
  at: number
) {
  const defaultZone =
    input.accountIds.length === 1 ? zoneOfAccount(context, input.accountIds[0]!) : context.workspaceZone
  const paused = input.paused ?? (existing !== undefined && existing.pausedAt !== null)
  return {
    id: existing?.id ?? (yield* (yield* Crypto).id("sch")),
    workspaceId,
    name: input.name ?? existing?.name ?? "Queue",
    accountIds: [...new Set(input.accountIds)],
    timeZone: input.timeZone ?? existing?.timeZone ?? defaultZone,
    slots: normalizeSlots(input.slots),
    pausedAt: paused ? (existing?.pausedAt ?? at) : null,
    createdAt: existing?.createdAt ?? at,
    updatedAt: at
  } satisfies Schedule
})

/** PUT /schedules: every schedule of the workspace and accounts' own zones; answers what moved. */
export const putSchedules = Effect.fn("putSchedules")(function* (actor: Actor, body: PutSchedulesRequest) {
  yield* requireQueueManager(actor)
  const workspaceId = actor.workspaceId
  const accounts = yield* (yield* AccountRepo).listByWorkspace(workspaceId)
  return yield* (yield* Store).transaction(
    Effect.gen(function* () {
      const repo = yield* ScheduleRepo
      yield* repo.lockQueue(workspaceId)
      const at = yield* now
      const before = yield* planningContext(workspaceId)
      const problem = checkInput(body, accounts, before.schedules)
      if (problem !== null) return yield* Effect.fail(problem)
      const zones = Object.entries(body.accountTimeZones ?? {}).map(([accountId, timeZone]) => ({
        accountId,
        timeZone
      }))
      yield* repo.setAccountZones(workspaceId, zones)
      const context = yield* planningContext(workspaceId)
      const next: Array<Schedule> = []
      for (const input of body.schedules)
        next.push(
          yield* scheduleFrom(
            input,
            before.schedules.find((s) => s.id === input.id),
            context,
            workspaceId,
            at
          )
        )
      const { moved, released } = yield* relayQueues(workspaceId, before.schedules, next, at, actor.kind)
      const view = schedulesView({ ...context, schedules: next }, accounts, at)
      yield* emit([
        yield* newEvent("schedules.updated", workspaceId, { kind: "workspace", id: workspaceId }, workspaceId, at, {
          schedules: view.schedules,
          moved,
          released
        })
      ])
      return { ...view, moved, released } satisfies SchedulesChanged
    })
  )
})

/** Pauses or resumes one queue: paused posts keep their slots and order; resuming lays them again from now. */
export const setQueuePaused = Effect.fn("setQueuePaused")(function* (
  actor: Actor,
  scheduleId: string,
  paused: boolean
) {
  yield* requireQueueManager(actor)
  const workspaceId = actor.workspaceId
  return yield* (yield* Store).transaction(
    Effect.gen(function* () {
      yield* (yield* ScheduleRepo).lockQueue(workspaceId)
      const at = yield* now
      const { schedules } = yield* planningContext(workspaceId)
      const current = schedules.find((s) => s.id === scheduleId)
      if (current === undefined) return yield* Effect.fail(fail("schedule_not_found", { scheduleId }))
      if ((current.pausedAt !== null) === paused) return { schedule: scheduleView(current, at), moved: [] }
      const changed: Schedule = { ...current, pausedAt: paused ? at : null, updatedAt: at }
      const { moved } = yield* relayQueues(
        workspaceId,
        schedules,
        schedules.map((s) => (s.id === scheduleId ? changed : s)),
        at,
        actor.kind
      )
      const schedule = scheduleView(changed, at)
      yield* emit([
        yield* newEvent(
          paused ? "queue.paused" : "queue.resumed",
          workspaceId,
          { kind: "schedule", id: scheduleId },
          scheduleId,
          at,
          { schedule, moved }
        )
      ])
      return { schedule, moved }
    })
  )
})

export const findSchedule = Effect.fnUntraced(function* (workspaceId: string, scheduleId: string) {
  const found = (yield* (yield* ScheduleRepo).list(workspaceId)).find((s) => s.id === scheduleId)
  return found === undefined ? yield* Effect.fail(fail("schedule_not_found", { scheduleId })) : found
})
