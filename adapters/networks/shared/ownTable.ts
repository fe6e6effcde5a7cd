import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/**
 * Makes a table a network adapter keeps for itself in Herald's database (not part of Herald's
 * schema, so not a migration), once, under a transaction-scoped advisory lock named `lock`:
 * processes starting together would otherwise race on CREATE TABLE IF NOT EXISTS.
 */
export const ensureOwnTable = (sql: SqlClient.SqlClient, lock: string, createTable: string) =>
  sql
    .withTransaction(
      Effect.andThen(sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))`, sql.unsafe(createTable))
    )
    .pipe(Effect.asVoid, Effect.orDie)
