import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  type AccountMetricsState,
  type DueTarget,
  groupLeases,
  MetricsRepo,
  type MetricsRepoShape,
  type Reading
} from "../../application/ports/MetricsRepo.ts"
import type { RawFigures } from "../../domain/metrics.ts"
import type { Platform } from "../../domain/platforms.ts"
import { fromDate, fromDateOrNull, toDate } from "./time.ts"

interface TargetRow {
  readonly post_id: string
  readonly account_id: string
  readonly workspace_id: string
  readonly platform: string
  readonly external_id: string
  readonly published_at: Date
  readonly stage: number
  readonly due_at: Date
  readonly turn: number
}

interface ReadingRow {
  readonly post_id: string
  readonly account_id: string
  readonly platform: string
  readonly published_at: Date
  readonly read_at: Date
  readonly raw: RawFigures | string
}

interface StateRow {
  readonly account_id: string
  readonly state: string
  readonly reason: string | null
  readonly checked_at: Date
}

/** The advisory lock space of accounts being leased (the second key is the account id's hash; a clash only passes one over). */
const ACCOUNT_LOCK = 7_026

/*
 * One look ($1 now, $2 lease end, $3 accounts, $4 targets): the due rows (the due index's range) name the accounts
 * holding a lease, passed over; workspaces take turns among the others (each one's account with the oldest due
 * target, then each one's second), and the chosen accounts take turns for the targets. Two schedulers looking at
 * once take different accounts (a transaction's advisory lock per account); the rows are locked last, re-checked.
 */
const leaseSql = `
  WITH due AS MATERIALIZED (
    SELECT post_id, account_id, workspace_id, due_at, leased_until FROM metric_targets WHERE due_at <= $1
  ), accounts AS (
    SELECT account_id, min(workspace_id) AS workspace_id, min(due_at) AS oldest FROM due
    GROUP BY account_id HAVING bool_and(leased_until IS NULL OR leased_until < $1)
  ), chosen_accounts AS (
    SELECT account_id, turn FROM (
      SELECT account_id, row_number() OVER (ORDER BY round, oldest, account_id) AS turn FROM (
        SELECT account_id, oldest, row_number() OVER (PARTITION BY workspace_id ORDER BY oldest, account_id) AS round
        FROM accounts
      ) a
    ) t
    -- Tried in turn until $3 are taken: an account another scheduler is choosing in this instant is passed over.
    WHERE pg_try_advisory_xact_lock(${ACCOUNT_LOCK}, hashtext(account_id)) ORDER BY turn LIMIT $3
  ), chosen AS (
    SELECT post_id, account_id, turn FROM (
      SELECT d.post_id, d.account_id, c.turn, row_number() OVER (PARTITION BY d.account_id ORDER BY d.due_at, d.post_id) AS k
      FROM due d JOIN chosen_accounts c ON c.account_id = d.account_id
    ) r ORDER BY k, turn LIMIT $4
  ), locked AS (
    SELECT t.post_id, t.account_id, c.turn FROM metric_targets t JOIN chosen c ON c.post_id = t.post_id AND c.account_id = t.account_id
    WHERE t.due_at <= $1 AND (t.leased_until IS NULL OR t.leased_until < $1)
    FOR UPDATE OF t SKIP LOCKED
  )
  UPDATE metric_targets m SET leased_until = $2 FROM locked l
  WHERE m.post_id = l.post_id AND m.account_id = l.account_id
  RETURNING m.post_id, m.account_id, m.workspace_id, m.platform, m.external_id, m.published_at, m.stage, m.due_at, l.turn::int AS turn`

/** An account's targets in the order a look chose them: by account, then oldest due first. */
const byTurn = (a: TargetRow, b: TargetRow) =>
  a.turn - b.turn ||
  fromDate(a.due_at) - fromDate(b.due_at) ||
  (a.post_id < b.post_id ? -1 : a.post_id > b.post_id ? 1 : 0)

const iso = (ms: number) => new Date(ms).toISOString()

const dueOf = (r: TargetRow): DueTarget => ({
  workspaceId: r.workspace_id,
  postId: r.post_id,
  accountId: r.account_id,
  platform: r.platform as Platform,
  externalId: r.external_id,
  publishedAt: fromDate(r.published_at),
  stage: Number(r.stage)
})

const readingOf = (r: ReadingRow): Reading => ({
  postId: r.post_id,
  accountId: r.account_id,
  platform: r.platform as Platform,
  publishedAt: fromDate(r.published_at),
  readAt: fromDate(r.read_at),
  raw: typeof r.raw === "string" ? (JSON.parse(r.raw) as RawFigures) : r.raw
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const saveState = (s: AccountMetricsState, workspaceId: string) =>
    sql`
      INSERT INTO metric_accounts (account_id, workspace_id, state, reason, checked_at)
      VALUES (${s.accountId}, ${workspaceId}, ${s.state}, ${s.reason}, ${toDate(s.checkedAt)})
      ON CONFLICT (account_id) DO UPDATE SET state = EXCLUDED.state, reason = EXCLUDED.reason, checked_at = EXCLUDED.checked_at`
  return {
    schedule: (targets) =>
      targets.length === 0
        ? Effect.void
        : sql`
            INSERT INTO metric_targets (post_id, account_id, workspace_id, platform, external_id, published_at, due_at)
            SELECT * FROM unnest(${targets.map((t) => t.postId)}::text[], ${targets.map((t) => t.accountId)}::text[],
              ${targets.map((t) => t.workspaceId)}::text[], ${targets.map((t) => t.platform)}::text[],
              ${targets.map((t) => t.externalId)}::text[], ${targets.map((t) => iso(t.publishedAt))}::timestamptz[],
              ${targets.map((t) => iso(t.publishedAt + 3_600_000))}::timestamptz[])
            ON CONFLICT (post_id, account_id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
    lease: (now, limits, leaseMs) =>
      sql.unsafe<TargetRow>(leaseSql, [toDate(now), toDate(now + leaseMs), limits.accounts, limits.targets]).pipe(
        Effect.map((rows) => groupLeases([...rows].sort(byTurn).map(dueOf), now)),
        Effect.orDie
      ),
    extend: (leases, until) => {
      const targets = leases.flatMap((l) => l.targets)
      return targets.length === 0
        ? Effect.void
        : sql`
            UPDATE metric_targets m SET leased_until = ${toDate(until)}
            FROM unnest(${targets.map((t) => t.postId)}::text[], ${targets.map((t) => t.accountId)}::text[]) AS v(p, a)
            WHERE m.post_id = v.p AND m.account_id = v.a AND m.leased_until IS NOT NULL`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
    },
    complete: (refreshed, readAt, state) =>
      refreshed.length === 0
        ? Effect.void
        : sql
            .withTransaction(
              Effect.gen(function* () {
                const read = refreshed.filter((r) => r.raw !== null)
                if (read.length > 0)
                  yield* sql`
                    INSERT INTO metric_readings (post_id, account_id, read_at, raw)
                    SELECT p, a, ${toDate(readAt)}, r FROM unnest(${read.map((r) => r.target.postId)}::text[],
                      ${read.map((r) => r.target.accountId)}::text[], ${read.map((r) => JSON.stringify(r.raw))}::jsonb[]) AS v(p, a, r)
                    ON CONFLICT DO NOTHING`
                // The driver cannot type an array of nulls: absent times and figures go as '' and come back as NULL.
                yield* sql`
                  UPDATE metric_targets m SET stage = v.s, due_at = NULLIF(v.d, '')::timestamptz, leased_until = NULL,
                    latest = COALESCE(NULLIF(v.r, '')::jsonb, m.latest),
                    latest_at = CASE WHEN v.r = '' THEN m.latest_at ELSE ${toDate(readAt)} END
                  FROM unnest(${refreshed.map((r) => r.target.postId)}::text[], ${refreshed.map((r) => r.target.accountId)}::text[],
                    ${refreshed.map((r) => r.stage)}::int[], ${refreshed.map((r) => (r.dueAt === null ? "" : iso(r.dueAt)))}::text[],
                    ${refreshed.map((r) => (r.raw === null ? "" : JSON.stringify(r.raw)))}::text[]) AS v(p, a, s, d, r)
                  WHERE m.post_id = v.p AND m.account_id = v.a`
                yield* saveState(state, refreshed[0].target.workspaceId)
              })
            )
            .pipe(Effect.asVoid, Effect.orDie),
    postpone: (targets, dueAt, state) =>
      targets.length === 0
        ? Effect.void
        : sql
            .withTransaction(
              Effect.gen(function* () {
                yield* sql`
                  UPDATE metric_targets m SET due_at = ${toDate(dueAt)}, leased_until = NULL
                  FROM unnest(${targets.map((t) => t.postId)}::text[], ${targets.map((t) => t.accountId)}::text[]) AS v(p, a)
                  WHERE m.post_id = v.p AND m.account_id = v.a`
                if (state !== null) yield* saveState(state, targets[0].workspaceId)
              })
            )
            .pipe(Effect.asVoid, Effect.orDie),
    demand: (workspaceId, postId, now, floorMs) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const accounts = yield* sql<{ account_id: string; demanded_at: Date | null }>`
              SELECT m.account_id, a.demanded_at FROM metric_targets m
              LEFT JOIN metric_accounts a ON a.account_id = m.account_id
              WHERE m.workspace_id = ${workspaceId} AND m.post_id = ${postId}
              FOR UPDATE OF m`
            const open = accounts.filter((a) => a.demanded_at === null || fromDate(a.demanded_at) + floorMs <= now)
            const shut = accounts.filter((a) => !open.includes(a)).map((a) => fromDate(a.demanded_at!) + floorMs)
            if (open.length > 0) {
              const ids = open.map((a) => a.account_id)
              yield* sql`
                UPDATE metric_targets SET due_at = ${toDate(now)}
                WHERE post_id = ${postId} AND account_id = ANY(${ids}::text[])`
              yield* sql`
                INSERT INTO metric_accounts (account_id, workspace_id, state, checked_at, demanded_at)
                SELECT a, ${workspaceId}, 'available', ${toDate(now)}, ${toDate(now)} FROM unnest(${ids}::text[]) AS a
                ON CONFLICT (account_id) DO UPDATE SET demanded_at = EXCLUDED.demanded_at`
            }
            return { queued: open.length, notBefore: shut.length === 0 ? null : Math.max(...shut) }
          })
        )
        .pipe(Effect.orDie),
    latest: (workspaceId, postIds) =>
      postIds.length === 0
        ? Effect.succeed([])
        : sql<ReadingRow>`
            SELECT post_id, account_id, platform, published_at, latest_at AS read_at, latest AS raw FROM metric_targets
            WHERE workspace_id = ${workspaceId} AND post_id = ANY(${[...postIds]}::text[]) AND latest IS NOT NULL`.pipe(
            Effect.map((rows) => rows.map(readingOf)),
            Effect.orDie
          ),
    history: (workspaceId, postId) =>
      sql<ReadingRow>`
        SELECT r.post_id, r.account_id, m.platform, m.published_at, r.read_at, r.raw
        FROM metric_readings r JOIN metric_targets m ON m.post_id = r.post_id AND m.account_id = r.account_id
        WHERE m.workspace_id = ${workspaceId} AND r.post_id = ${postId} ORDER BY r.read_at`.pipe(
        Effect.map((rows) => rows.map(readingOf)),
        Effect.orDie
      ),
    published: (workspaceId, query) =>
      sql<ReadingRow>`
        SELECT post_id, account_id, platform, published_at, latest_at AS read_at, latest AS raw FROM metric_targets
        WHERE workspace_id = ${workspaceId} AND published_at >= ${toDate(query.from)} AND published_at < ${toDate(query.to)}
          AND latest IS NOT NULL
          ${query.accountId === undefined ? sql`` : sql`AND account_id = ${query.accountId}`}
          ${query.platform === undefined ? sql`` : sql`AND platform = ${query.platform}`}
        ORDER BY published_at`.pipe(
        Effect.map((rows) => rows.map(readingOf)),
        Effect.orDie
      ),
    reconnected: (workspaceId, accountId, now, offsetsMs) =>
      sql<{ account_id: string }>`
        WITH cleared AS (
          UPDATE metric_accounts SET state = 'available', reason = NULL, checked_at = ${toDate(now)}
          WHERE account_id = ${accountId} AND workspace_id = ${workspaceId} AND state = 'unavailable'
          RETURNING account_id
        ), due AS (
          -- Past its scheduled read (a stage past the last has none): postponed while unavailable.
          UPDATE metric_targets m SET due_at = ${toDate(now)} FROM cleared c
          WHERE m.account_id = c.account_id AND m.due_at > ${toDate(now)}
            AND m.due_at > m.published_at + (${offsetsMs.map(String)}::bigint[])[m.stage + 1] * interval '1 millisecond'
        )
        SELECT account_id FROM cleared`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    accountStates: (workspaceId, accountIds) =>
      accountIds.length === 0
        ? Effect.succeed([])
        : sql<StateRow>`
            SELECT account_id, state, reason, checked_at FROM metric_accounts
            WHERE workspace_id = ${workspaceId} AND account_id = ANY(${[...accountIds]}::text[])`.pipe(
            Effect.map((rows) =>
              rows.map(
                (r): AccountMetricsState => ({
                  accountId: r.account_id,
                  state: r.state === "unavailable" ? "unavailable" : "available",
                  reason: r.reason,
                  checkedAt: fromDateOrNull(r.checked_at) ?? 0
                })
              )
            ),
            Effect.orDie
          )
  } satisfies MetricsRepoShape
})

export const layer = Layer.effect(MetricsRepo)(make)
