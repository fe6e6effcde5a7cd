import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { layer as storageLayer, storageTables } from "../../adapters/postgres/index.ts"

/** Empties every storage table when built (CASCADE also empties tables that refer to them, e.g. jobs). */
export const emptyTables = () =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`TRUNCATE ${storageTables.join(", ")} CASCADE`)
    }).pipe(Effect.orDie)
  )

/** The SQL storage ports on an empty store, over a shared, migrated SqlClient. */
export const freshSqlStorage = <E>(backend: Layer.Layer<SqlClient.SqlClient, E>) =>
  Layer.mergeAll(storageLayer, emptyTables()).pipe(Layer.provide(backend))
