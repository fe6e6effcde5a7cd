import { shareAcrossSuites } from "../support/shared.ts"
import { freshSqlStorage } from "../support/storage.ts"
import { testDatabase, withTestServer } from "../support/postgres.ts"
import { storageContracts } from "./all.ts"
import { sqlPostCreatorSuite } from "./sqlPostCreator.ts"

await withTestServer("postgres", () => {
  // One database for the file (created, migrated, dropped at the end); each suite empties it first.
  const backend = testDatabase()
  const memoMap = shareAcrossSuites(backend)
  storageContracts("postgres", () => freshSqlStorage(backend), { memoMap })
  sqlPostCreatorSuite("postgres", backend, { memoMap })
})
