import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { planned } from "./planned.ts"
import { pauseFor } from "../../application/usecases/webhooks/circuit.ts"
import {
  type DeliveryLimits,
  type DeliveryRecord,
  type LeasedDelivery,
  WebhookDeliveries,
  type WebhookDeliveriesShape
} from "../../application/ports/WebhookDeliveries.ts"
import type { Delivery, DeliveryStatus } from "../../domain/webhooks.ts"
import { fromDate, fromDateOrNull } from "./time.ts"

interface DeliveryRow {
  readonly id: string
  readonly webhook_id: string
  readonly workspace_id: string
  readonly event_id: string
  readonly event_type: string
  readonly status: string
  readonly attempts: number
  readonly round_failures: number
  readonly created_at: Date
  readonly next_attempt_at: Date | null
  readonly last_attempt_at: Date | null
  readonly response_code: number | null
  readonly response_time_ms: number | null
  readonly error: string | null
  readonly delivered_at: Date | null
}

const fromRow = (r: DeliveryRow): Delivery => ({
  id: r.id,
  webhookId: r.webhook_id,
  workspaceId: r.workspace_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status as DeliveryStatus,
  attempts: r.attempts,
  roundFailures: r.round_failures,
  createdAt: fromDate(r.created_at),
  nextAttemptAt: fromDateOrNull(r.next_attempt_at),
  lastAttemptAt: fromDateOrNull(r.last_attempt_at),
  responseCode: r.response_code,
  responseTimeMs: r.response_time_ms,
  error: r.error,
  deliveredAt: fromDateOrNull(r.delivered_at)
})

interface LeasedRow {
  readonly id: string
  readonly attempts: number
  readonly round_failures: number
  readonly event_id: string
  readonly event_type: string
  readonly event_created_at: Date
  readonly body: string
  readonly webhook_id: string
  readonly workspace_id: string
  readonly url: string
  readonly sealed_secret: string
  readonly failing_since: Date | null
  readonly hangs: number
}

const fromLeased = (r: LeasedRow): LeasedDelivery => ({
  id: r.id,
  attempts: r.attempts,
  roundFailures: r.round_failures,
  event: { id: r.event_id, type: r.event_type, createdAt: fromDate(r.event_created_at), body: r.body },
  webhook: {
    id: r.webhook_id,
    workspaceId: r.workspace_id,
    url: r.url,
    sealedSecret: r.sealed_secret,
    failingSince: fromDateOrNull(r.failing_since),
    hangs: r.hangs
  }
})

/**
 * Leases and records commit without waiting for the WAL flush (set for their own transaction, inside
 * the one statement): losing one in a database crash only sends a delivery again, with the same id,
 * which receivers take anyway (at least once). Waiting for the flush cost tens of milliseconds per
 * statement on a busy disk, and every delivery waits for its record.
 */
const unflushed = `(SELECT set_config('synchronous_commit', 'off', true)) AS unflushed`

/** Takes the chosen deliveries ($1 now, $2 lease end), returning what a worker needs to send them. */
const takeSql = (chosen: string) => `
  WITH due AS (${chosen})
  UPDATE webhook_deliveries d SET attempts = d.attempts + 1, available_at = $2, last_attempt_at = $1
  FROM due, events ev, webhooks w, ${unflushed}
  WHERE d.id = due.id AND ev.id = d.event_id AND w.id = d.webhook_id
  RETURNING d.id, d.attempts, d.round_failures, ev.id AS event_id, ev.type AS event_type, ev.created_at AS event_created_at, ev.body,
    w.id AS webhook_id, w.workspace_id, w.url, w.sealed_secret, w.failing_since, w.hangs`

/*
 * Fair shares ($3 max; caps $4 per endpoint, $5 per workspace, $6 hangs that open a circuit; $7 rows looked at per
 * workspace): each workspace with pending deliveries (a loose scan of the index, one probe per workspace) offers its
 * oldest due ones of open endpoints, heads of their ordering keys; tries in flight (held: leased, not recorded) count
 * against the caps; then workspaces take turns. The rows are locked last, re-checked as they are locked.
 */
const leaseSql = takeSql(`
    WITH RECURSIVE spaces AS (
      (SELECT workspace_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY workspace_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.workspace_id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.workspace_id > s.workspace_id ORDER BY d.workspace_id LIMIT 1)
      FROM spaces s WHERE s.workspace_id IS NOT NULL
    ), held AS (
      SELECT webhook_id, workspace_id FROM webhook_deliveries
      WHERE status = 'pending' AND available_at > $1 AND available_at IS DISTINCT FROM next_attempt_at
    ), held_hook AS (SELECT webhook_id, count(*) AS n FROM held GROUP BY 1),
    held_space AS (SELECT workspace_id, count(*) AS n FROM held GROUP BY 1),
    offered AS (
      SELECT c.*, coalesce(hs.n, 0) AS space_held FROM spaces s
      LEFT JOIN held_space hs ON hs.workspace_id = s.workspace_id
      CROSS JOIN LATERAL (
        SELECT d.id, d.webhook_id, d.workspace_id, d.available_at, d.seq, w.hangs FROM webhook_deliveries d
        JOIN webhooks w ON w.id = d.webhook_id AND w.enabled AND (w.paused_until IS NULL OR w.paused_until <= $1)
        -- A workspace at its cap is passed over without reading its rows (a one-time filter).
        WHERE coalesce(hs.n, 0) < $5 AND d.workspace_id = s.workspace_id AND d.status = 'pending' AND d.available_at <= $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
            WHERE p.status = 'pending' AND p.webhook_id = d.webhook_id AND p.ordering_key = d.ordering_key AND p.seq < d.seq)
        ORDER BY d.available_at, d.seq LIMIT $7
      ) c
      WHERE s.workspace_id IS NOT NULL
    ), within_endpoint AS (
      SELECT o.*, row_number() OVER (PARTITION BY o.webhook_id ORDER BY o.available_at, o.seq) + coalesce(hh.n, 0) AS hook_n
      FROM offered o LEFT JOIN held_hook hh ON hh.webhook_id = o.webhook_id
    ), turns AS (
      SELECT id, available_at, seq, space_held,
        row_number() OVER (PARTITION BY workspace_id ORDER BY available_at, seq) AS turn
      FROM within_endpoint WHERE hook_n <= CASE WHEN hangs >= $6 THEN 1 ELSE $4 END
    ), chosen AS (
      SELECT id FROM turns WHERE turn + space_held <= $5 ORDER BY turn, available_at, seq LIMIT $3
    )
    SELECT d.id FROM webhook_deliveries d
    WHERE d.id IN (SELECT id FROM chosen) AND d.status = 'pending' AND d.available_at <= $1
    FOR UPDATE OF d SKIP LOCKED`)

// Leased now: its lease (available_at) runs past both now and its planned try.
const notLeased = `NOT (available_at > $1 AND available_at IS DISTINCT FROM next_attempt_at)`

const leaseOneSql = takeSql(
  `SELECT id FROM webhook_deliveries WHERE id = $3 AND status = 'pending' AND ${notLeased} FOR UPDATE SKIP LOCKED`
)

// One statement records a batch, each row only while its lease holds ($1: the records as JSON, $2
// their ids: matched by the primary key, not by a join the planner may run over every pending row).
const recordSql = `
  WITH r AS (
    SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(id text, attempts int, status text, retry_at timestamptz, at timestamptz,
      response_code int, response_time_ms int, error text, failed boolean), ${unflushed}
  )
  UPDATE webhook_deliveries d SET status = r.status, round_failures = d.round_failures + (CASE WHEN r.failed THEN 1 ELSE 0 END),
    available_at = coalesce(r.retry_at, d.available_at), next_attempt_at = r.retry_at, response_code = r.response_code,
    response_time_ms = r.response_time_ms, error = r.error, delivered_at = CASE WHEN r.status = 'succeeded' THEN r.at END
  FROM r WHERE d.id = ANY ($2::text[]) AND d.id = r.id AND d.attempts = r.attempts AND d.status = 'pending'
  RETURNING d.id, d.webhook_id`

// $1 the endpoints' tries as JSON (id order), $2 hangs that open a circuit, $3 the pause by hangs past $2 (pauseFor).
const circuitSql = `
  WITH c AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(id text, at timestamptz, answered boolean, hung int)),
  locked AS (SELECT w.id FROM webhooks w JOIN c ON c.id = w.id ORDER BY w.id FOR NO KEY UPDATE OF w),
  next AS (
    SELECT w.id, CASE WHEN c.answered THEN 0 ELSE w.hangs + c.hung END AS hangs, c.at FROM webhooks w JOIN c ON c.id = w.id
    WHERE w.id IN (SELECT id FROM locked)
  ), changed AS (
    UPDATE webhooks w SET hangs = next.hangs, paused_until = CASE WHEN next.hangs >= $2
      THEN next.at + ($3::int[])[least(next.hangs - $2 + 1, cardinality($3::int[]))] * interval '1 millisecond' END
    FROM next WHERE w.id = next.id
    RETURNING w.id, w.paused_until, next.at
  )
  UPDATE webhook_deliveries d SET available_at = changed.paused_until, next_attempt_at = changed.paused_until
  FROM changed WHERE changed.paused_until IS NOT NULL AND d.webhook_id = changed.id AND d.status = 'pending'
    AND d.available_at < changed.paused_until
    AND (d.available_at IS NOT DISTINCT FROM d.next_attempt_at OR d.available_at <= changed.at)`

const statusOf = (r: DeliveryRecord) =>
  r.result._tag === "Succeeded" ? "succeeded" : r.result._tag === "GaveUp" ? "failed" : "pending"

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** Endpoint streaks from recorded tries: a success ends one, a failure starts one; rows locked in id order. */
  const updateStreaks = (records: ReadonlyArray<DeliveryRecord>, recorded: ReadonlySet<string>) => {
    const byWebhook = new Map<string, { ok: boolean; firstFailure: number | null }>()
    for (const r of records) {
      if (!recorded.has(r.delivery.id)) continue
      const seen = byWebhook.get(r.delivery.webhook.id) ?? { ok: false, firstFailure: null }
      if (r.result._tag === "Succeeded") seen.ok = true
      else seen.firstFailure = seen.firstFailure === null ? r.at : Math.min(seen.firstFailure, r.at)
      byWebhook.set(r.delivery.webhook.id, seen)
    }
    // Most batches change nothing (the endpoint was healthy and still is): skip them without a write.
    const streakAtLease = new Map(records.map((r) => [r.delivery.webhook.id, r.delivery.webhook.failingSince]))
    const changes = [...byWebhook.entries()]
      .filter(([id, s]) => (s.ok ? streakAtLease.get(id) !== null : streakAtLease.get(id) === null))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, s]) => ({
        id,
        ok: s.ok,
        first_failure: s.firstFailure === null ? null : new Date(s.firstFailure).toISOString()
      }))
    if (changes.length === 0) return Effect.void
    return sql
      .unsafe(
        `
      WITH c AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(id text, ok boolean, first_failure timestamptz)),
      locked AS (SELECT w.id FROM webhooks w JOIN c ON c.id = w.id ORDER BY w.id FOR NO KEY UPDATE OF w)
      UPDATE webhooks w SET failing_since = CASE WHEN c.ok THEN NULL ELSE coalesce(w.failing_since, c.first_failure) END
      FROM c WHERE w.id = c.id AND w.id IN (SELECT id FROM locked)
        AND w.failing_since IS DISTINCT FROM (CASE WHEN c.ok THEN NULL ELSE coalesce(w.failing_since, c.first_failure) END)`,
        [JSON.stringify(changes)]
      )
      .pipe(Effect.asVoid)
  }

  /**
   * Endpoint circuits from recorded tries: any answer closes one, hung tries count toward opening it; one that opens
   * pauses its endpoint (pauseFor, passed as a table by hang count) and plans its waiting deliveries for then.
   */
  const updateCircuits = (
    records: ReadonlyArray<DeliveryRecord>,
    recorded: ReadonlySet<string>,
    limits: DeliveryLimits
  ) => {
    const byWebhook = new Map<string, { at: number; answered: boolean; hung: number }>()
    for (const r of records) {
      if (!recorded.has(r.delivery.id)) continue
      const seen = byWebhook.get(r.delivery.webhook.id) ?? { at: r.at, answered: false, hung: 0 }
      byWebhook.set(r.delivery.webhook.id, {
        at: Math.max(seen.at, r.at),
        answered: seen.answered || !r.hung,
        hung: seen.hung + (r.hung ? 1 : 0)
      })
    }
    const hangsAtLease = new Map(records.map((r) => [r.delivery.webhook.id, r.delivery.webhook.hangs]))
    const changes = [...byWebhook.entries()]
      .filter(([id, c]) => c.hung > 0 || hangsAtLease.get(id) !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, c]) => ({ id, at: new Date(c.at).toISOString(), answered: c.answered, hung: c.hung }))
    if (changes.length === 0) return Effect.void
    const pauses = Array.from({ length: 12 }, (_, i) => pauseFor(limits.hangsToPause + i, limits))
    return sql.unsafe(circuitSql, [JSON.stringify(changes), limits.hangsToPause, pauses]).pipe(Effect.asVoid)
  }

  return {
    lease: (now, max, leaseMs, limits) =>
      // One statement, so the rows it locks are held for no longer; a workspace offers twice what it could take.
      planned(
        sql.unsafe<LeasedRow>(leaseSql, [
          new Date(now),
          new Date(now + leaseMs),
          max,
          limits.perEndpoint,
          limits.perWorkspace,
          limits.hangsToPause,
          2 * Math.min(limits.perWorkspace, max)
        ])
      ).pipe(
        Effect.map((rows) => rows.map(fromLeased)),
        Effect.orDie
      ),
    // Held: pending, and its lease end is not a planned try (a record sets next_attempt_at with available_at).
    extend: (leased, until) =>
      leased.length === 0
        ? Effect.succeed(new Set<string>())
        : sql<{ id: string }>`
            UPDATE webhook_deliveries d SET available_at = ${new Date(until)}
            FROM unnest(${leased.map((l) => l.id)}::text[], ${leased.map((l) => l.attempts)}::int[]) AS v(id, attempts)
            WHERE d.id = v.id AND d.attempts = v.attempts AND d.status = 'pending'
              AND d.available_at IS DISTINCT FROM d.next_attempt_at
            RETURNING d.id`.pipe(
            Effect.map((rows): ReadonlySet<string> => new Set(rows.map((r) => r.id))),
            Effect.orDie
          ),
    leaseOne: (id, now, leaseMs) =>
      sql.unsafe<LeasedRow>(leaseOneSql, [new Date(now), new Date(now + leaseMs), id]).pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromLeased)),
        Effect.orDie
      ),
    record: (records, limits) => {
      if (records.length === 0) return Effect.succeed(new Set<string>())
      const json = JSON.stringify(
        records.map((r) => ({
          id: r.delivery.id,
          attempts: r.delivery.attempts,
          status: statusOf(r),
          retry_at: r.result._tag === "Retry" ? new Date(r.result.retryAt).toISOString() : null,
          at: new Date(r.at).toISOString(),
          response_code: r.responseCode,
          response_time_ms: r.responseTimeMs === null ? null : Math.round(r.responseTimeMs),
          error: r.error,
          failed: r.result._tag !== "Succeeded"
        }))
      )
      // One statement when no endpoint's streak changes (the usual case); with the streaks, one transaction.
      const recordRows = Effect.map(
        planned(sql.unsafe<{ id: string }>(recordSql, [json, records.map((r) => r.delivery.id)])),
        (rows) => new Set(rows.map((r) => r.id))
      )
      const streaksMayChange = records.some(
        (r) => (r.result._tag === "Succeeded") === (r.delivery.webhook.failingSince !== null)
      )
      const circuitsMayChange = records.some((r) => r.hung || r.delivery.webhook.hangs > 0)
      return (
        streaksMayChange || circuitsMayChange
          ? sql.withTransaction(
              Effect.tap(recordRows, (recorded) =>
                Effect.andThen(updateStreaks(records, recorded), updateCircuits(records, recorded, limits))
              )
            )
          : recordRows
      ).pipe(
        Effect.map((recorded): ReadonlySet<string> => recorded),
        Effect.orDie
      )
    },
    list: (workspaceId, webhookId, query) =>
      sql<DeliveryRow>`
        SELECT * FROM webhook_deliveries
        WHERE ${sql.and([
          sql`webhook_id = ${webhookId}`,
          sql`workspace_id = ${workspaceId}`,
          ...(query.before === undefined ? [] : [sql`id < ${query.before}`]),
          ...(query.status === undefined ? [] : [sql`status = ${query.status}`])
        ])}
        ORDER BY id DESC LIMIT ${query.limit}`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    find: (workspaceId, id) =>
      sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    // A delivery a worker holds right now is left to it (and answered as it is).
    redeliver: (workspaceId, id, now) =>
      sql<DeliveryRow>`
        UPDATE webhook_deliveries SET status = 'pending', round_failures = 0, available_at = ${new Date(now)}, next_attempt_at = ${new Date(now)}, delivered_at = NULL
        WHERE id = ${id} AND workspace_id = ${workspaceId}
          AND NOT (status = 'pending' AND available_at > ${new Date(now)} AND available_at IS DISTINCT FROM next_attempt_at)
        RETURNING *`.pipe(
        Effect.flatMap((rows) =>
          rows[0] === undefined
            ? sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE id = ${id} AND workspace_id = ${workspaceId}`
            : Effect.succeed(rows)
        ),
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    pendingCount: () =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.orDie
      )
  } satisfies WebhookDeliveriesShape
})

export const layer = Layer.effect(WebhookDeliveries)(make)
