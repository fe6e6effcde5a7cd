/** The delivery queue's statements (PostgresWebhookDeliveries): leasing with fair shares, records, circuits. */

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
export const leaseSql = takeSql(`
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

export const leaseOneSql = takeSql(
  `SELECT id FROM webhook_deliveries WHERE id = $3 AND status = 'pending' AND ${notLeased} FOR UPDATE SKIP LOCKED`
)

// One statement records a batch, each row only while its lease holds ($1: the records as JSON, $2
// their ids: matched by the primary key, not by a join the planner may run over every pending row).
export const recordSql = `
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
export const circuitSql = `
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
