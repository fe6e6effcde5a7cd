import { Context, type Effect } from "effect"
import type { QueueEntry, Schedule } from "../../domain/schedule.ts"

/** An account's own time zone, overriding its workspace's. */
export interface AccountZone {
  readonly accountId: string
  readonly timeZone: string
}

export interface ScheduleRepoShape {
  /** The workspace's schedules, oldest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<Schedule>>
  /** Makes these the workspace's schedules: new ones inserted, changed ones replaced, others deleted with their entries. */
  readonly replace: (workspaceId: string, schedules: ReadonlyArray<Schedule>) => Effect.Effect<void>
  /** Replaces one schedule (pause, resume). */
  readonly update: (schedule: Schedule) => Effect.Effect<void>
  /** The accounts of the workspace that have their own time zone. */
  readonly accountZones: (workspaceId: string) => Effect.Effect<ReadonlyArray<AccountZone>>
  /** Sets (a zone) or clears (null) accounts' own time zones; accounts not named keep theirs. */
  readonly setAccountZones: (
    workspaceId: string,
    zones: ReadonlyArray<{ readonly accountId: string; readonly timeZone: string | null }>
  ) => Effect.Effect<void>
  /**
   * Holds the workspace's queue until the surrounding transaction ends (a no-op outside one): the
   * reads and placements of one queue change happen one at a time, so no two posts take one slot.
   */
  readonly lockQueue: (workspaceId: string) => Effect.Effect<void>
  /**
   * Live entries of these accounts with a slot at or after `from`, by slot. An entry is live while
   * its post is neither cancelled nor rejected and is still due at that slot: a post rescheduled off its
   * slot, or removed, frees it without another write.
   */
  readonly entries: (
    workspaceId: string,
    accountIds: ReadonlyArray<string>,
    from: number
  ) => Effect.Effect<ReadonlyArray<QueueEntry>>
  /** Live entries of one schedule at or after `from`, by slot then post id; `limit` entries at most. */
  readonly scheduleEntries: (
    workspaceId: string,
    scheduleId: string,
    from: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<QueueEntry>>
  /**
   * Puts posts at slots: each post's earlier entries are dropped, and an entry another (no longer
   * live) post held on that account and slot is replaced.
   */
  readonly place: (entries: ReadonlyArray<QueueEntry>) => Effect.Effect<void>
  /** Takes posts out of the queue (their entries are deleted). */
  readonly release: (workspaceId: string, postIds: ReadonlyArray<string>) => Effect.Effect<void>
}

/** Posting schedules, the queue entries that hold their slots, and accounts' own time zones. */
export class ScheduleRepo extends Context.Service<ScheduleRepo, ScheduleRepoShape>()("herald/ScheduleRepo") {}
