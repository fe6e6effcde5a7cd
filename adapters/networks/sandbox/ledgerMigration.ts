import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The sandbox's posts (SqlSandboxLedger); IF NOT EXISTS: hosts before migrations made it on first use. */
export const ledgerMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`CREATE TABLE IF NOT EXISTS sandbox_ledger (
    external_id text PRIMARY KEY,
    account_id text NOT NULL,
    post_id text NOT NULL,
    content text NOT NULL,
    reply_to jsonb,
    media_ids jsonb NOT NULL,
    extra jsonb NOT NULL,
    at bigint NOT NULL
  )`
)

/** Every publish call that named a record's id is counted (a repeat stores nothing new): tests assert one call per handle. */
export const ledgerPublishesMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`ALTER TABLE sandbox_ledger ADD COLUMN IF NOT EXISTS publishes integer NOT NULL DEFAULT 1`
)

/** A take-down marks the record removed (kept, so tests can count the remove calls that named it: one removes, repeats only count). */
export const ledgerRemovalsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`ALTER TABLE sandbox_ledger ADD COLUMN IF NOT EXISTS removed_at bigint, ADD COLUMN IF NOT EXISTS removes integer NOT NULL DEFAULT 0`
)
