import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "@effect/vitest"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import type { SqlClient } from "effect/sql"
import * as ReelLedger from "../../../adapters/networks/facebook/reelLedger.ts"
import * as SqlReelLedger from "../../../adapters/networks/facebook/SqlReelLedger.ts"
import { reelsMigration } from "../../../adapters/networks/facebook/reelsMigration.ts"
import * as Pglite from "../../../adapters/pglite/index.ts"
import { testDatabase, withTestServer } from "../../support/postgres.ts"
import { reelLedgerSuite } from "./reelLedgerSuite.ts"

// One process's memory: the same ledger is both "processes".
const memory = ReelLedger.makeMemory()
const shared = Layer.succeed(ReelLedger.ReelLedger)(memory)
reelLedgerSuite(
  "memory",
  () => shared,
  () => shared
)

// SQL: each "process" builds its own ledger on the one database.
const onSql = (sql: () => Context.Context<SqlClient.SqlClient>) => () =>
  SqlReelLedger.layer.pipe(Layer.provide(Layer.effectContext(Effect.sync(sql))))

const dataDir = join(mkdtempSync(join(tmpdir(), "herald-pglite-reels-")), "db")
let pglite: Context.Context<SqlClient.SqlClient> | undefined
const pgliteScope = Scope.makeUnsafe()
beforeAll(async () => {
  pglite = await Effect.runPromise(Layer.buildWithScope(Pglite.layer(dataDir), pgliteScope))
  // The table is the Facebook network's migration (run by the host's migrator).
  await Effect.runPromise(Effect.provideContext(reelsMigration, pglite))
}, 60_000)
afterAll(async () => {
  await Effect.runPromise(Scope.close(pgliteScope, Exit.void))
  rmSync(join(dataDir, ".."), { recursive: true, force: true })
})
reelLedgerSuite(
  "pglite",
  onSql(() => pglite!),
  onSql(() => pglite!)
)

await withTestServer("reels ledger (postgres)", () => {
  let postgres: Context.Context<SqlClient.SqlClient> | undefined
  const scope = Scope.makeUnsafe()
  beforeAll(async () => {
    postgres = await Effect.runPromise(Layer.buildWithScope(testDatabase(4), scope))
  }, 60_000)
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  reelLedgerSuite(
    "postgres",
    onSql(() => postgres!),
    onSql(() => postgres!)
  )
})
