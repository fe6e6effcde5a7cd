import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ScheduleRepo, type ScheduleRepoShape } from "../../application/ports/ScheduleRepo.ts"
import type { QueueEntry, Schedule, WeeklySlot } from "../../domain/schedule.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

interface ScheduleRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly account_ids: ReadonlyArray<string>
  readonly time_zone: string
  readonly slots: ReadonlyArray<WeeklySlot>
  readonly paused_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

interface EntryRow {
  readonly account_id: string
  readonly slot_at: Date
  readonly post_id: string
  readonly schedule_id: string
  readonly workspace_id: string
}

const fromRow = (r: ScheduleRow): Schedule => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  accountIds: r.account_ids,
  timeZone: r.time_zone,
  slots: r.slots,
  pausedAt: fromDateOrNull(r.paused_at),
  createdAt: fromDate(r.created_at),
  updatedAt: fromDate(r.updated_at)
})

const entryFromRow = (r: EntryRow): QueueEntry => ({
  workspaceId: r.workspace_id,
  scheduleId: r.schedule_id,
  postId: r.post_id,
  accountId: r.account_id,
  slotAt: fromDate(r.slot_at)
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const upsert = (s: Schedule) =>
    sql`
      INSERT INTO schedules (id, workspace_id, name, account_ids, time_zone, slots, paused_at, created_at, updated_at)
      VALUES (${s.id}, ${s.workspaceId}, ${s.name}, ${[...s.accountIds]}::text[], ${s.timeZone}, ${JSON.stringify(s.slots)}::jsonb,
        ${toDateOrNull(s.pausedAt)}, ${toDate(s.createdAt)}, ${toDate(s.updatedAt)})
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, account_ids = EXCLUDED.account_ids, time_zone = EXCLUDED.time_zone,
        slots = EXCLUDED.slots, paused_at = EXCLUDED.paused_at, updated_at = EXCLUDED.updated_at
      WHERE schedules.workspace_id = EXCLUDED.workspace_id`
  // An entry counts while its post stands at its slot: not removed, still due then.
  const live = sql`p.id = q.post_id AND p.workspace_id = q.workspace_id AND p.deleted_at IS NULL AND p.scheduled_for = q.slot_at`
  return {
    list: (workspaceId) =>
      sql<ScheduleRow>`SELECT * FROM schedules WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    replace: (workspaceId, schedules) =>
      Effect.gen(function* () {
        const ids = schedules.map((s) => s.id)
        yield* sql`DELETE FROM queue_entries WHERE workspace_id = ${workspaceId} AND NOT (schedule_id = ANY(${ids}::text[]))`
        yield* sql`DELETE FROM schedules WHERE workspace_id = ${workspaceId} AND NOT (id = ANY(${ids}::text[]))`
        for (const s of schedules) yield* upsert(s)
      }).pipe(Effect.orDie),
    update: (schedule) => upsert(schedule).pipe(Effect.asVoid, Effect.orDie),
    accountZones: (workspaceId) =>
      sql<{ account_id: string; time_zone: string }>`
        SELECT account_id, time_zone FROM account_time_zones WHERE workspace_id = ${workspaceId} ORDER BY account_id`.pipe(
        Effect.map((rows) => rows.map((r) => ({ accountId: r.account_id, timeZone: r.time_zone }))),
        Effect.orDie
      ),
    setAccountZones: (workspaceId, zones) =>
      Effect.gen(function* () {
        const cleared = zones.filter((z) => z.timeZone === null).map((z) => z.accountId)
        const set = zones.filter((z) => z.timeZone !== null)
        if (cleared.length > 0)
          yield* sql`DELETE FROM account_time_zones WHERE workspace_id = ${workspaceId} AND account_id = ANY(${cleared}::text[])`
        if (set.length > 0)
          yield* sql`
            INSERT INTO account_time_zones (account_id, workspace_id, time_zone)
            SELECT a, ${workspaceId}, z FROM unnest(${set.map((z) => z.accountId)}::text[], ${set.map((z) => z.timeZone!)}::text[]) AS t (a, z)
            ON CONFLICT (account_id) DO UPDATE SET time_zone = EXCLUDED.time_zone
            WHERE account_time_zones.workspace_id = EXCLUDED.workspace_id`
      }).pipe(Effect.orDie),
    // A transaction-scoped advisory lock (released at COMMIT or ROLLBACK), in its own key space beside the posts' locks.
    lockQueue: (workspaceId) =>
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`queue:${workspaceId}`}, 0))`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    entries: (workspaceId, accountIds, from) =>
      sql<EntryRow>`
        SELECT q.* FROM queue_entries q JOIN posts p ON ${live}
        WHERE q.workspace_id = ${workspaceId} AND q.account_id = ANY(${[...accountIds]}::text[]) AND q.slot_at >= ${toDate(from)}
        ORDER BY q.slot_at, q.post_id`.pipe(
        Effect.map((rows) => rows.map(entryFromRow)),
        Effect.orDie
      ),
    scheduleEntries: (workspaceId, scheduleId, from, limit) =>
      sql<EntryRow>`
        SELECT q.* FROM queue_entries q JOIN posts p ON ${live}
        WHERE q.workspace_id = ${workspaceId} AND q.schedule_id = ${scheduleId} AND q.slot_at >= ${toDate(from)}
        ORDER BY q.slot_at, q.post_id LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.map(entryFromRow)),
        Effect.orDie
      ),
    place: (entries) =>
      entries.length === 0
        ? Effect.void
        : Effect.gen(function* () {
            const postIds = [...new Set(entries.map((e) => e.postId))]
            yield* sql`DELETE FROM queue_entries WHERE post_id = ANY(${postIds}::text[])`
            yield* sql`
              INSERT INTO queue_entries (account_id, slot_at, post_id, schedule_id, workspace_id)
              SELECT * FROM unnest(${entries.map((e) => e.accountId)}::text[], ${entries.map((e) => toDate(e.slotAt).toISOString())}::timestamptz[],
                ${entries.map((e) => e.postId)}::text[], ${entries.map((e) => e.scheduleId)}::text[], ${entries.map((e) => e.workspaceId)}::text[])
              ON CONFLICT (account_id, slot_at) DO UPDATE SET post_id = EXCLUDED.post_id, schedule_id = EXCLUDED.schedule_id,
                workspace_id = EXCLUDED.workspace_id`
          }).pipe(Effect.orDie),
    release: (workspaceId, postIds) =>
      postIds.length === 0
        ? Effect.void
        : sql`DELETE FROM queue_entries WHERE workspace_id = ${workspaceId} AND post_id = ANY(${[...postIds]}::text[])`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
  } satisfies ScheduleRepoShape
})

export const layer = Layer.effect(ScheduleRepo)(make)
