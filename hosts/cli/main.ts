import { join, resolve } from "node:path"
import { Effect, Layer, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { HeraldConfig, loadConfig } from "../../application/config.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as Pglite from "../../adapters/pglite/index.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as PostgresClient from "../../adapters/postgres/PostgresClient.ts"
import { describeFailure, type Outcome, parse, type Parsed, run } from "./commands.ts"
import * as OperatorSocket from "./operatorSocket.ts"
import { networkMigrations } from "../networks.ts"

/*
 * `npm run herald -- <command>`: operator commands (see commands.ts). On DATABASE_URL, or on the
 * embedded PGlite when no process holds it, the command runs here; while a host holds the embedded
 * database, it runs inside that host. Every failure prints one or two lines and exits non-zero.
 */

const show = (outcome: Outcome) =>
  Effect.sync(() => {
    if (outcome.stdout !== "") process.stdout.write(outcome.stdout)
    if (outcome.stderr !== "") process.stderr.write(outcome.stderr)
    process.exitCode = outcome.exitCode
  })

/** The command on a database opened here; `migrate` is the one command that does not migrate first. */
const runHere = <E>(parsed: Parsed, database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  Effect.gen(function* () {
    const { config } = yield* loadConfig
    const migrated =
      parsed.command === "migrate" ? Layer.empty : Layer.effectDiscard(Postgres.migrateWith(networkMigrations))
    const core = Layer.mergeAll(Postgres.layer, migrated).pipe(
      Layer.provideMerge(database),
      Layer.merge(NodeCrypto.layer),
      Layer.merge(Layer.succeed(HeraldConfig)(config))
    )
    return yield* run(parsed).pipe(Effect.provide(core))
  })

const main = Effect.gen(function* () {
  const parsed = parse(process.argv.slice(2))
  if (parsed._tag === "Done") return parsed.outcome
  const { env } = yield* loadConfig
  if (Option.isSome(env.databaseUrl))
    return yield* runHere(parsed, PostgresClient.layer(env.databaseUrl.value, { maxConnections: 2 }))
  const dataDir = resolve(env.dataDir)
  const pgDir = join(dataDir, "pg")
  const holder = yield* Effect.promise(() => Pglite.holderOf(pgDir))
  if (holder === null) return yield* runHere(parsed, Pglite.layer(pgDir))
  const answered = yield* Effect.promise(() => OperatorSocket.ask(dataDir, holder, process.argv.slice(2)))
  return (
    answered ?? {
      exitCode: 1,
      stdout: "",
      stderr:
        `error: the embedded database ${pgDir} is open in process ${holder}, which does not take operator commands.\n` +
        `Stop that process (or wait for it to finish) and run the command again, or set DATABASE_URL.\n`
    }
  )
}).pipe(
  Effect.catchCause((cause) => Effect.succeed(describeFailure(cause))),
  Effect.flatMap(show)
)

NodeRuntime.runMain(main, { disableErrorReporting: true })
