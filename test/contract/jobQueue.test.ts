import { layer as memoryStorage } from "../../adapters/memory/index.ts"
import { shareAcrossSuites } from "../support/shared.ts"
import { freshSqlStorage } from "../support/storage.ts"
import { testDatabase, withTestServer } from "../support/postgres.ts"
import { jobQueueContract } from "./jobQueue.ts"

jobQueueContract("memory", memoryStorage)

await withTestServer("postgres: JobQueue", () => {
  // A fresh database for this file (created, migrated, dropped at the end).
  const backend = testDatabase()
  const memoMap = shareAcrossSuites(backend)
  jobQueueContract("postgres", freshSqlStorage(backend), { memoMap })
})
