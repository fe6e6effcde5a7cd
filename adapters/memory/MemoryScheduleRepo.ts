import { Effect, Layer } from "effect"
import { ScheduleRepo, type ScheduleRepoShape } from "../../application/ports/ScheduleRepo.ts"
import type { QueueEntry } from "../../domain/schedule.ts"
import { MemoryState } from "./MemoryState.ts"

const bySlot = (a: QueueEntry, b: QueueEntry) => a.slotAt - b.slotAt || (a.postId < b.postId ? -1 : 1)

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const { schedules, queueEntries, accountZones, posts } = state.tables
  /** The post still stands at this slot: not removed, still due then. */
  const isLive = (e: QueueEntry) => {
    const post = posts.get(e.postId)
    return (
      post !== undefined &&
      post.workspaceId === e.workspaceId &&
      post.deletedAt === null &&
      post.scheduledFor === e.slotAt
    )
  }
  const dropEntries = (keep: (e: QueueEntry) => boolean) => {
    for (const [key, e] of queueEntries) if (!keep(e)) queueEntries.delete(key)
  }
  return {
    list: (workspaceId) =>
      state.sync(() =>
        [...schedules.values()]
          .filter((s) => s.workspaceId === workspaceId)
          .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      ),
    replace: (workspaceId, next) =>
      state.sync(() => {
        const kept = new Set(next.map((s) => s.id))
        for (const [id, s] of schedules)
          if (s.workspaceId === workspaceId && !kept.has(id)) {
            schedules.delete(id)
            dropEntries((e) => e.scheduleId !== id)
          }
        for (const s of next) schedules.set(s.id, s)
      }),
    update: (schedule) =>
      state.sync(() => {
        const current = schedules.get(schedule.id)
        if (current !== undefined && current.workspaceId === schedule.workspaceId) schedules.set(schedule.id, schedule)
      }),
    accountZones: (workspaceId) =>
      state.sync(() =>
        [...accountZones.entries()]
          .filter(([, z]) => z.workspaceId === workspaceId)
          .map(([accountId, z]) => ({ accountId, timeZone: z.timeZone }))
      ),
    setAccountZones: (workspaceId, zones) =>
      state.sync(() => {
        for (const z of zones)
          if (z.timeZone === null) accountZones.delete(z.accountId)
          else accountZones.set(z.accountId, { workspaceId, timeZone: z.timeZone })
      }),
    // One transaction at a time already (MemoryState): nothing more to hold.
    lockQueue: () => Effect.void,
    entries: (workspaceId, accountIds, from) =>
      state.sync(() => {
        const wanted = new Set(accountIds)
        return [...queueEntries.values()]
          .filter((e) => e.workspaceId === workspaceId && wanted.has(e.accountId) && e.slotAt >= from && isLive(e))
          .sort(bySlot)
      }),
    scheduleEntries: (workspaceId, scheduleId, from, limit) =>
      state.sync(() =>
        [...queueEntries.values()]
          .filter((e) => e.workspaceId === workspaceId && e.scheduleId === scheduleId && e.slotAt >= from && isLive(e))
          .sort(bySlot)
          .slice(0, limit)
      ),
    place: (entries) =>
      state.sync(() => {
        const moving = new Set(entries.map((e) => e.postId))
        dropEntries((e) => !moving.has(e.postId))
        for (const e of entries) queueEntries.set(`${e.accountId}|${e.slotAt}`, e)
      }),
    release: (workspaceId, postIds) =>
      state.sync(() => {
        const leaving = new Set(postIds)
        dropEntries((e) => !(e.workspaceId === workspaceId && leaving.has(e.postId)))
      })
  } satisfies ScheduleRepoShape
})

export const layer = Layer.effect(ScheduleRepo)(make)
