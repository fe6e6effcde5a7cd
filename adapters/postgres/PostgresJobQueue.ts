import { Array as Arr, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { planned } from "./planned.ts"
import { JobQueue, type JobKind, type JobQueueShape, type LeasedJob } from "../../application/ports/JobQueue.ts"
import { fromDate, toDate } from "./time.ts"

interface JobRow {
  readonly id: string
  readonly kind: string
  readonly workspace_id: string
  readonly post_id: string
  readonly account_id: string
  readonly run_at: Date
  readonly attempts: number
  readonly failures: number
  readonly checkpoint_step: number | null
  readonly checkpoint_handle: string | null
}

const fromRow = (row: JobRow): LeasedJob => ({
  id: row.id,
  kind: row.kind as JobKind,
  workspaceId: row.workspace_id,
  postId: row.post_id,
  accountId: row.account_id,
  runAt: fromDate(row.run_at),
  attempts: row.attempts,
  failures: row.failures,
  checkpoint: row.checkpoint_step === null ? null : { step: row.checkpoint_step, handle: row.checkpoint_handle }
})

const columns =
  "id, kind, workspace_id, post_id, account_id, run_at, attempts, failures, checkpoint_step, checkpoint_handle"

/**
 * The queue in PostgreSQL. Leasing is one statement: `FOR UPDATE SKIP LOCKED` picks due rows no
 * other worker is taking, and the same UPDATE stamps the lease, so any number of scheduler
 * processes share the table without a leader. Every write of a worker is fenced by the lease's
 * attempt number: a worker whose lease expired and was taken over changes nothing.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const fenced = (job: LeasedJob) => sql`id = ${job.id} AND attempts = ${job.attempts}`
  const changed = (rows: ReadonlyArray<unknown>) => rows.length > 0
  const ids = (rows: ReadonlyArray<{ readonly id: string }>): ReadonlySet<string> => new Set(rows.map((r) => r.id))
  return {
    enqueue: (jobs) => {
      const rows = jobs.map(
        (j): Record<string, unknown> => ({
          id: j.id,
          kind: j.kind,
          workspace_id: j.workspaceId,
          post_id: j.postId,
          account_id: j.accountId,
          run_at: toDate(j.runAt),
          available_at: toDate(j.runAt),
          attempts: j.attempts
        })
      )
      return Arr.isReadonlyArrayNonEmpty(rows)
        ? sql`INSERT INTO jobs ${sql.insert(rows)} ON CONFLICT (id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie)
        : Effect.void
    },
    removeForPost: (postId) =>
      sql`DELETE FROM jobs WHERE post_id = ${postId} AND lease_until IS NULL`.pipe(Effect.asVoid, Effect.orDie),
    rescheduleForPost: (postId, runAt) =>
      sql`UPDATE jobs SET run_at = ${toDate(runAt)}, available_at = ${toDate(runAt)}
          WHERE post_id = ${postId} AND kind = 'publish' AND lease_until IS NULL`.pipe(Effect.asVoid, Effect.orDie),
    lease: (now, max, leaseMs) => {
      const until = toDate(now + leaseMs)
      return planned(sql<JobRow>`
        WITH due AS (
          SELECT id FROM jobs WHERE available_at <= ${toDate(now)}
          ORDER BY available_at, id LIMIT ${max}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs SET attempts = jobs.attempts + 1, lease_until = ${until}, available_at = ${until}
        FROM due WHERE jobs.id = due.id
        RETURNING ${sql.unsafe(
          columns
            .split(", ")
            .map((c) => `jobs.${c}`)
            .join(", ")
        )}`).pipe(
        Effect.map((rows) => rows.map(fromRow).sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1))),
        Effect.orDie
      )
    },
    extend: (job, until) =>
      sql`UPDATE jobs SET lease_until = ${toDate(until)}, available_at = ${toDate(until)}
          WHERE ${fenced(job)} RETURNING id`.pipe(Effect.map(changed), Effect.orDie),
    // Only while leased: a job handed back for a retry (lease_until NULL) keeps its run time.
    extendMany: (jobs, until) =>
      jobs.length === 0
        ? Effect.succeed(new Set<string>())
        : sql<{ id: string }>`
            UPDATE jobs SET lease_until = ${toDate(until)}, available_at = ${toDate(until)}
            FROM unnest(${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.attempts)}::int[]) AS v(id, attempts)
            WHERE jobs.id = v.id AND jobs.attempts = v.attempts AND jobs.lease_until IS NOT NULL
            RETURNING jobs.id`.pipe(Effect.map(ids), Effect.orDie),
    checkpoint: (job, checkpoint) =>
      sql`UPDATE jobs SET checkpoint_step = ${checkpoint.step}, checkpoint_handle = ${checkpoint.handle}
          WHERE ${fenced(job)} RETURNING id`.pipe(Effect.map(changed), Effect.orDie),
    // Batches: one statement each, every row still fenced by its own lease's attempt number.
    checkpointMany: (entries) =>
      entries.length === 0
        ? Effect.succeed(new Set<string>())
        : sql<{ id: string }>`
            UPDATE jobs SET checkpoint_step = v.step, checkpoint_handle = v.handle
            FROM jsonb_to_recordset(${JSON.stringify(entries.map((e) => ({ id: e.job.id, attempts: e.job.attempts, step: e.checkpoint.step, handle: e.checkpoint.handle })))}::jsonb)
              AS v(id text, attempts integer, step integer, handle text)
            WHERE jobs.id = v.id AND jobs.attempts = v.attempts
            RETURNING jobs.id`.pipe(Effect.map(ids), Effect.orDie),
    complete: (job) => sql`DELETE FROM jobs WHERE ${fenced(job)} RETURNING id`.pipe(Effect.map(changed), Effect.orDie),
    completeMany: (jobs) =>
      jobs.length === 0
        ? Effect.succeed(new Set<string>())
        : sql<{ id: string }>`
            DELETE FROM jobs USING unnest(${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.attempts)}::int[]) AS v(id, attempts)
            WHERE jobs.id = v.id AND jobs.attempts = v.attempts
            RETURNING jobs.id`.pipe(Effect.map(ids), Effect.orDie),
    retryAt: (job, runAt, options) =>
      sql`UPDATE jobs SET run_at = ${toDate(runAt)}, available_at = ${toDate(runAt)}, lease_until = NULL,
            failures = failures + ${options.failure ? 1 : 0},
            checkpoint_step = ${options.clearCheckpoint ? null : sql`checkpoint_step`},
            checkpoint_handle = ${options.clearCheckpoint ? null : sql`checkpoint_handle`}
          WHERE ${fenced(job)} RETURNING id`.pipe(Effect.map(changed), Effect.orDie),
    // A transaction-scoped advisory lock keyed by the post id: released at COMMIT or ROLLBACK.
    lockPost: (postId) =>
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${postId}, 0))`.pipe(Effect.asVoid, Effect.orDie),
    // The same locks for a batch, taken in key order (the sorted subquery is not flattened: OFFSET 0),
    // so two batches sharing posts wait for each other instead of deadlocking.
    lockPosts: (postIds) =>
      postIds.length === 0
        ? Effect.void
        : sql`SELECT count(pg_advisory_xact_lock(k)) FROM (
                SELECT DISTINCT hashtextextended(p, 0) AS k FROM unnest(${[...postIds]}::text[]) AS p ORDER BY k OFFSET 0
              ) AS s`.pipe(Effect.asVoid, Effect.orDie),
    pending: () =>
      sql<JobRow>`SELECT ${sql.unsafe(columns)} FROM jobs ORDER BY run_at, id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      )
  } satisfies JobQueueShape
})

export const layer = Layer.effect(JobQueue)(make)
