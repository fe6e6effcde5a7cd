import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"
import * as AesGcmVault from "../../adapters/crypto/AesGcmVault.ts"
import * as NodeCrypto from "../../adapters/crypto/NodeCrypto.ts"
import * as Postgres from "../../adapters/postgres/index.ts"
import * as SqlSandboxLedger from "../../adapters/networks/sandbox/SqlSandboxLedger.ts"
import { createDatabaseForProcesses } from "../support/postgres.ts"
import { nodeArgsOf } from "../../bench/npmScript.ts"
import { HeraldConfig } from "../../application/config.ts"
import { publishersOf } from "../../application/ports/Network.ts"
import { Publishers } from "../../application/ports/Publishers.ts"
import { connectInBrowser } from "../support/connect.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { asOwner, createKeyAsOperator, createWorkspaceAsOperator } from "../../application/usecases/operator.ts"
import { sandboxConnectors, testConfig } from "../../hosts/test/TestHost.ts"
import { networkMigrations } from "../../hosts/networks.ts"

/** A fresh, unmigrated database `<prefix>_<random>` on the test server (the schedulers migrate it); `drop` removes it. */
export const freshDatabase = (prefix: string) => createDatabaseForProcesses({ prefix, migrated: false })

/** Herald's storage, the PostgreSQL queue and the sandbox ledger on `url`, migrated. */
export const pgCore = (url: string, maxConnections = 10) => {
  const sql = PgClient.layer({ url: Redacted.make(url), maxConnections })
  return Layer.mergeAll(Postgres.layer, SqlSandboxLedger.layer).pipe(
    Layer.provideMerge(Layer.effectDiscard(Postgres.migrateWith(networkMigrations))),
    Layer.provideMerge(sql),
    Layer.merge(NodeCrypto.layer),
    Layer.merge(AesGcmVault.layer("herald test secret")),
    Layer.merge(sandboxConnectors),
    // Creating posts asks the networks for dry-run advice; these processes publish nothing themselves.
    Layer.merge(Layer.succeed(Publishers)(publishersOf([]))),
    Layer.merge(Layer.succeed(HeraldConfig)(testConfig()))
  )
}

export const runtimeFor = (url: string, maxConnections = 10) => ManagedRuntime.make(pgCore(url, maxConnections))

/** A claimed pro workspace with `accounts` sandbox accounts and a key that posts without approval. */
export const seedWorkspace = (accounts: number) =>
  Effect.gen(function* () {
    const ws = yield* createWorkspaceAsOperator({
      email: `ops-${randomBytes(4).toString("hex")}@herald-customer.org`,
      name: "Bench",
      plan: "pro"
    })
    const { text } = yield* createKeyAsOperator(ws.id, "bench", false)
    const agent = yield* authenticateKey(text)
    const accountIds = yield* asOwner(ws.id, (owner) =>
      Effect.forEach(
        Array.from({ length: accounts }, (_, i) => i),
        (i) =>
          Effect.gen(function* () {
            return (yield* connectInBrowser(owner, "sandbox", { username: `acct${i}` })).account.id
          })
      )
    )
    return { workspaceId: ws.id, agent, accountIds }
  })

/** Starts `npm run scheduler` as a child process on `url`. */
export const spawnScheduler = (
  url: string,
  env: Record<string, string>,
  stdio: ["ignore", "ignore" | "pipe", "ignore" | "pipe"] = ["ignore", "ignore", "ignore"]
): ChildProcess =>
  spawn(
    process.execPath,
    [...(process.env.BENCH_HERALD_FLAGS?.split(" ").filter(Boolean) ?? []), ...nodeArgsOf("scheduler")],
    {
      env: { ...process.env, DATABASE_URL: url, HERALD_DATA_DIR: join(tmpdir(), "herald-scheduler-runs"), ...env },
      stdio
    }
  )

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once("exit", (code) => resolve(code))
  )

/**
 * `spawnScheduler` with a promise that resolves once the scheduler has started (its "scheduler:"
 * line): on a busy machine a start takes seconds, and a kill before it lands on nothing.
 */
export const spawnReadyScheduler = (url: string, env: Record<string, string>) => {
  const child = spawnScheduler(url, { ...env, LOG_LEVEL: "Info" }, ["ignore", "pipe", "ignore"])
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => (chunk.toString().includes("scheduler:") ? resolve() : undefined))
    child.once("exit", (code) => reject(new Error(`scheduler exited before it started (${code})`)))
  })
  // A kill during the start is fine for the caller; only an unobserved rejection is not.
  ready.catch(() => undefined)
  return { child, ready }
}
