import { randomBytes } from "node:crypto"
import { describe, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { migrateWith } from "../../adapters/postgres/index.ts"
import { networkMigrations } from "../../hosts/networks.ts"

/** Herald's schema and the networks' own tables, as the hosts migrate. */
const migrate = migrateWith(networkMigrations)

/** The server tests run against; each run gets its own database on it. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const urlFor = (database: string): string => {
  const url = new URL(testDatabaseUrl)
  url.pathname = `/${database}`
  return url.toString()
}

const client = (url: string, maxConnections: number) =>
  PgClient.layer({ url: Redacted.make(url), maxConnections, connectTimeout: Duration.seconds(3) })

/** Runs statements on the server's maintenance database (the one in the URL). */
const onServer = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  effect.pipe(Effect.provide(client(testDatabaseUrl, 1)))

/** Undefined when the server answers, otherwise why it does not. */
export const unreachableReason = (): Promise<string | undefined> =>
  Effect.runPromise(
    onServer(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)).pipe(
      Effect.timeout(Duration.seconds(5)),
      Effect.match({ onSuccess: () => undefined, onFailure: (error) => String(error) })
    )
  )

/**
 * A new database `herald_test_<random>` on the server, migrated, with a pooled client; the database
 * is dropped when the layer is released, so runs never see each other's rows.
 */
export const testDatabase = (maxConnections = 10) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const name = `herald_test_${randomBytes(6).toString("hex")}`
      yield* Effect.acquireRelease(
        onServer(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE DATABASE ${sql(name)}`)),
        () =>
          onServer(
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)
          ).pipe(Effect.catchCause((cause) => Effect.logWarning(`could not drop ${name}`, cause)))
      )
      const connection = client(urlFor(name), maxConnections)
      return Layer.effectDiscard(migrate).pipe(Layer.provideMerge(connection))
    })
  )

/**
 * A new database `<prefix>_<random>` for processes outside this one (hosts started as child
 * processes): its name, URL, and a function that drops it (ending its sessions). Migrated unless
 * `migrated: false` (schedulers that migrate it themselves).
 */
export const createDatabaseForProcesses = async (
  options: { readonly prefix?: string; readonly migrated?: boolean } = {}
) => {
  const name = `${options.prefix ?? "herald_test"}_${randomBytes(6).toString("hex")}`
  await Effect.runPromise(onServer(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE DATABASE ${sql(name)}`)))
  const url = urlFor(name)
  if (options.migrated !== false) await Effect.runPromise(migrate.pipe(Effect.provide(client(url, 1))))
  return {
    name,
    url,
    drop: (): Promise<void> =>
      Effect.runPromise(
        onServer(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)
        ).pipe(Effect.asVoid)
      )
  }
}

/**
 * Declares suites that need the test server. `npm test` needs PostgreSQL (`.ci/run` starts or
 * installs it): without one, the file fails with the reason and how to get one, never a quiet skip.
 */
export const withTestServer = async (name: string, suites: () => void): Promise<void> => {
  const reason = await unreachableReason()
  if (reason === undefined) return suites()
  describe(name, () => {
    it("the test server is reachable", () => {
      throw new Error(
        `PostgreSQL at ${testDatabaseUrl} is unreachable: ${reason}. Start one with scripts/ensure-postgres.sh, or set TEST_DATABASE_URL.`
      )
    })
  })
}
