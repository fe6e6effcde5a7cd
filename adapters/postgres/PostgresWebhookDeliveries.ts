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
import { circuitSql, leaseOneSql, leaseSql, recordSql } from "./deliverySql.ts"
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
