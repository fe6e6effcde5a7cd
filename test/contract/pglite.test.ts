import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import * as Pglite from "../../adapters/pglite/index.ts"
import { migrate } from "../../adapters/postgres/index.ts"
import { shareAcrossSuites } from "../support/shared.ts"
import { freshSqlStorage } from "../support/storage.ts"
import { storageContracts } from "./all.ts"
import { sqlPostCreatorSuite } from "./sqlPostCreator.ts"

// One new data directory for the file, opened once and shared; each suite empties the tables first.
const dataDir = join(mkdtempSync(join(tmpdir(), "herald-pglite-test-")), "db")
const backend = Layer.effectDiscard(migrate).pipe(Layer.provideMerge(Pglite.layer(dataDir)))
const memoMap = shareAcrossSuites(backend, {
  afterClose: () => rmSync(join(dataDir, ".."), { recursive: true, force: true })
})

storageContracts("pglite", () => freshSqlStorage(backend), { memoMap })
sqlPostCreatorSuite("pglite", backend, { memoMap })
