import { describe, it } from "@effect/vitest"
import { shareAcrossSuites } from "../support/shared.ts"
import { freshSqlStorage } from "../support/storage.ts"
import { testDatabase, testDatabaseUrl, unreachableReason } from "../support/postgres.ts"
import { storageContracts } from "./all.ts"

const unreachable = await unreachableReason()

if (unreachable === undefined) {
  // One database for the file (created, migrated, dropped at the end); each suite empties it first.
  const backend = testDatabase()
  const memoMap = shareAcrossSuites(backend)
  storageContracts("postgres", () => freshSqlStorage(backend), { memoMap })
} else if (process.env.CI) {
  // In CI a missing server is a failure, never a quiet skip.
  describe("postgres", () => {
    it("the test server is reachable", () => {
      throw new Error(`PostgreSQL at ${testDatabaseUrl} is unreachable: ${unreachable}`)
    })
  })
} else {
  console.warn(
    `\n${"!".repeat(78)}\n!! SKIPPING the PostgreSQL contract tests: ${testDatabaseUrl} is unreachable.\n!! ${unreachable}\n` +
      `!! Start it with scripts/ensure-postgres.sh or set TEST_DATABASE_URL. (With CI set, this fails.)\n${"!".repeat(78)}\n`
  )
  describe.skip("postgres (server unreachable)", () => {
    it("the test server is reachable", () => {})
  })
}
