import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The reels published per Page (SqlReelLedger); IF NOT EXISTS: hosts before migrations made it on first use. */
export const reelsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`CREATE TABLE IF NOT EXISTS facebook_reels (page_id text NOT NULL, video_id text NOT NULL, at bigint NOT NULL, PRIMARY KEY (page_id, video_id))`
)
