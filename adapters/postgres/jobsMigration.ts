import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The publish queue (PostgresJobQueue). `available_at` is when a job may be leased next: its
 * `run_at` while it waits, its lease expiry while a worker holds it, so one index finds both due
 * jobs and abandoned leases. A workspace's jobs go with it (ON DELETE CASCADE).
 */
export const jobsMigration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE TABLE jobs (
    id text COLLATE "C" PRIMARY KEY,
    kind text NOT NULL,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    post_id text NOT NULL,
    account_id text NOT NULL,
    run_at timestamptz NOT NULL,
    available_at timestamptz NOT NULL,
    lease_until timestamptz,
    attempts integer NOT NULL DEFAULT 0,
    failures integer NOT NULL DEFAULT 0,
    checkpoint_step integer,
    checkpoint_handle text
  )`)
  yield* sql.unsafe(`CREATE INDEX jobs_available_idx ON jobs (available_at, id)`)
  yield* sql.unsafe(`CREATE INDEX jobs_post_idx ON jobs (post_id)`)
  yield* sql.unsafe(`CREATE INDEX jobs_workspace_idx ON jobs (workspace_id)`)
})
