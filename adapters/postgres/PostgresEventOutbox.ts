import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { EventOutbox, type EventOutboxShape } from "../../application/ports/EventOutbox.ts"
import { eventCtes, eventsJson } from "./eventSql.ts"
import { fromDate } from "./time.ts"

const appendSql = `WITH ${eventCtes("appended", "$1")} SELECT count(*)::int AS n FROM appended`

interface EventRow {
  readonly id: string
  readonly type: string
  readonly created_at: Date
  readonly body: string
  readonly position: string
}

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    append: (events) =>
      events.length === 0 ? Effect.void : sql.unsafe(appendSql, [eventsJson(events)]).pipe(Effect.asVoid, Effect.orDie),
    // (The position is an alias apart from seq: ORDER BY seq must sort the number, not its text.)
    // Only events older than every transaction still running: one still being written may hold a
    // smaller seq than those already committed, and a reader must not step past it.
    list: (workspaceId, query) =>
      sql<EventRow>`
        SELECT id, type, created_at, body, seq::text AS position FROM events
        WHERE ${sql.and([
          sql`workspace_id = ${workspaceId}`,
          sql`seq > ${query.after === null ? "0" : query.after}::bigint`,
          sql`only_webhook_id IS NULL`,
          sql`tx < pg_snapshot_xmin(pg_current_snapshot())`,
          ...(query.resourceId === undefined ? [] : [sql`resource_id = ${query.resourceId}`]),
          ...(query.types === undefined || query.types.length === 0 ? [] : [sql`type = ANY (${query.types}::text[])`])
        ])}
        ORDER BY seq
        LIMIT ${query.limit}`.pipe(
        Effect.map((rows) =>
          rows.map((r) => ({
            id: r.id,
            type: r.type,
            createdAt: fromDate(r.created_at),
            body: r.body,
            position: r.position
          }))
        ),
        Effect.orDie
      ),
    latest: (workspaceId) =>
      sql<{ seq: string | null }>`SELECT max(seq)::text AS seq FROM events WHERE workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => rows[0]?.seq ?? null),
        Effect.orDie
      ),
    sweep: (before, limit) =>
      sql<{ n: number }>`
        WITH gone AS (DELETE FROM events WHERE id IN (SELECT id FROM events WHERE created_at < ${new Date(before)} LIMIT ${limit}) RETURNING 1)
        SELECT count(*)::int AS n FROM gone`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.orDie
      )
  } satisfies EventOutboxShape
})

export const layer = Layer.effect(EventOutbox)(make)
