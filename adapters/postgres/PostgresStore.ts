import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { Store, type StoreShape } from "../../application/ports/Store.ts"

/**
 * A transaction on the SQL client: every repository statement inside it runs on the transaction's
 * connection (nested calls become savepoints) and a failure or defect rolls all of them back.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      // BEGIN/COMMIT failing is infrastructure, a defect; the effect's own errors pass through.
      sql
        .withTransaction(effect)
        .pipe(Effect.catchIf(SqlError.isSqlError, (error) => Effect.die(error))) as Effect.Effect<A, E, R>
  } satisfies StoreShape
})

export const layer = Layer.effect(Store)(make)
