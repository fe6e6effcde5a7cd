import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "@effect/vitest"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import * as Pglite from "../../adapters/pglite/index.ts"
import { migrate } from "../../adapters/postgres/index.ts"
import { deliverySuite } from "./deliverySuite.ts"
import { webhooksLayerOnPostgres } from "./support.ts"

// The embedded database (npm start): the same SQL, one connection. One data directory for the file.
const dataDir = join(mkdtempSync(join(tmpdir(), "herald-pglite-hooks-")), "db")
let sql: Context.Context<SqlClient.SqlClient> | undefined
const scope = Scope.makeUnsafe()
beforeAll(async () => {
  sql = await Effect.runPromise(
    Layer.buildWithScope(Layer.effectDiscard(migrate).pipe(Layer.provideMerge(Pglite.layer(dataDir))), scope)
  )
}, 60_000)
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(join(dataDir, ".."), { recursive: true, force: true })
})
deliverySuite("pglite", () => webhooksLayerOnPostgres(Layer.effectContext(Effect.sync(() => sql!))))
