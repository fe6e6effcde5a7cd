import { Effect, type Layer } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { type Options, type PgliteError, start } from "./PgliteServer.ts"

export { holderOf, type Options, PgliteError } from "./PgliteServer.ts"

/**
 * The embedded database: PGlite with its data on disk, reached through @effect/sql-pg so the
 * PostgreSQL adapters run on it unchanged. Closing the scope closes the client, then the socket
 * server, then PGlite (which flushes its data dir), then the lock.
 *
 * Exactly ONE client connection: the socket server interleaves the messages of several connections.
 * Queries queue for it; a transaction holds it, so work forked out of a transaction (which loses
 * the transaction's connection) must not wait for that transaction.
 */
export const layer = (
  dataDir: string,
  options: Options = {}
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, PgliteError | SqlError.SqlError> =>
  PgClient.layerFrom(
    Effect.gen(function* () {
      const path = yield* start(dataDir, options)
      return yield* PgClient.make({ path, database: "postgres", username: "postgres", maxConnections: 1 })
    })
  )
