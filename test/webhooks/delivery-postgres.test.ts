import { afterAll, beforeAll } from "@effect/vitest"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { testDatabase, withTestServer } from "../support/postgres.ts"
import { deliverySuite } from "./deliverySuite.ts"
import { webhooksLayerOnPostgres } from "./support.ts"

await withTestServer("webhook delivery (postgres)", () => {
  // One database for the file; each test empties its tables (freshSqlStorage) and builds the rest anew.
  let sql: Context.Context<SqlClient.SqlClient> | undefined
  const scope = Scope.makeUnsafe()
  beforeAll(async () => {
    sql = await Effect.runPromise(Layer.buildWithScope(testDatabase(4), scope))
  }, 60_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  deliverySuite("postgres", () => webhooksLayerOnPostgres(Layer.effectContext(Effect.sync(() => sql!))))
})
