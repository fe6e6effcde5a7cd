import { afterAll, beforeAll } from "@effect/vitest"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import { testDatabase, withTestServer } from "../support/postgres.ts"
import { fairSharesSuite } from "./fairSharesSuite.ts"
import { webhooksLayer, webhooksLayerOnPostgres } from "./support.ts"

fairSharesSuite("in memory", webhooksLayer)

await withTestServer("webhook fair shares (postgres)", () => {
  let sql: Context.Context<SqlClient.SqlClient> | undefined
  const scope = Scope.makeUnsafe()
  beforeAll(async () => {
    sql = await Effect.runPromise(Layer.buildWithScope(testDatabase(4), scope))
  }, 60_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  fairSharesSuite("postgres", () => webhooksLayerOnPostgres(Layer.effectContext(Effect.sync(() => sql!))))
})
