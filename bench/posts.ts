import { type ChildProcess, spawn } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "effect/sql"
import { Redacted } from "effect"
import * as Postgres from "../adapters/postgres/index.ts"
import { AccountRepo } from "../application/ports/AccountRepo.ts"
import { ApiKeyRepo } from "../application/ports/ApiKeyRepo.ts"
import { WorkspaceRepo } from "../application/ports/WorkspaceRepo.ts"
import { createDatabaseForProcesses } from "../test/support/postgres.ts"
import { freePort } from "../test/support/freePort.ts"
import { combine, load, type LoadResult } from "./load.ts"
import { nodeArgsOf } from "./npmScript.ts"
import { cpuBetween, cpuOf, cpuOfCommand } from "./proc.ts"

/*
 * `npm run bench -- posts`: POST /posts (create: the post with its target, the month's count and the
 * publish job, written in one statement with the creates waiting beside it) on a real PostgreSQL server, 64 keep-alive connections,
 * against the HTTP host alone, started as `npm run http` starts it (its own process). Next to it, in the same run: a
 * bare node:http server with a `pg` pool of 10 inserting one row per request. Targets: >= 50% of the
 * baseline's throughput, p99 <= 25 ms. Also printed: CPU time per request (user + system, over the
 * measured seconds) of the server, of PostgreSQL's processes and of the load client. They share the
 * machine's cores, so when it is saturated the throughput ratio follows the ratio of their sums.
 * BENCH_SECONDS sets the measured length per server, BENCH_ROUNDS the alternating rounds it is cut
 * into, BENCH_WARMUP_SECONDS the warm-up; BENCH_DRY_RUN=1 sends dry runs instead (Herald without the write,
 * counted as non-201); BENCH_PROFILE_DIR writes a CPU profile of the Herald process;
 * BENCH_HERALD_FLAGS passes node flags to it and BENCH_HERALD_LOG=<file> keeps its output;
 * BENCH_EXTRA_SQL runs statements (separated by ";;") on Herald's database before the run, to try
 * an index or a setting without a migration. BENCH_CONNECTIONS sets the load; BENCH_IDEMPOTENCY=1
 * sends a fresh Idempotency-Key with every request.
 */

// The figure is at 64; BENCH_CONNECTIONS shows another load (at 1, every create is a batch of one).
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
// Long enough for V8 to finish compiling the hot paths: after 2 s Herald still spent ~14% of its CPU
// in the optimising compiler's threads, after 30 s about 1% (perf); the baseline's code is tiny.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const root = fileURLToPath(new URL("..", import.meta.url))

const baselineScript = `
import { createServer } from "node:http"
import pg from "pg"
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query("CREATE TABLE IF NOT EXISTS baseline_posts (id bigserial PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())")
createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
      const { rows } = await pool.query("INSERT INTO baseline_posts (body) VALUES ($1) RETURNING id, created_at", [body])
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ post: { id: String(rows[0].id), createdAt: rows[0].created_at } }))
    } catch (e) { res.writeHead(500).end(String(e)) }
  })
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
`

const waitUp = async (url: string, child: ChildProcess, log: () => string) => {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break
    const ok = await fetch(url, { method: "POST", body: "{}" }).then(
      () => true,
      () => false
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server did not start:\n${log()}`)
}

const startProcess = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  child.stderr!.on("data", (d) => (log += d))
  return { child, log: () => log }
}

/**
 * CPU time over the measured part of a load run: the server, every
 * PostgreSQL process, and this process (the load generator), all sharing the machine's cores.
 */
const cpuMeter = (pid: number) => {
  const read = () => {
    const own = process.cpuUsage()
    return {
      server: cpuOf(pid).own,
      postgres: cpuOfCommand("postgres"),
      client: (own.user + own.system) / 1000
    }
  }
  let started = read()
  const used = { server: 0, postgres: 0, client: 0 }
  // Summed over the measured rounds. PostgreSQL's processes come and go (pool connections closing):
  // counted per process.
  return {
    start: () => {
      started = read()
    },
    end: () => {
      const ended = read()
      used.server += ended.server - started.server
      used.postgres += cpuBetween(started.postgres, ended.postgres)
      used.client += ended.client - started.client
    },
    used: () => used
  }
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
}

/** A Pro workspace (no monthly cap), a key that is not asks-first, a sandbox account. */
const seed = (url: string, keyText: string) =>
  Effect.gen(function* () {
    const now = Date.now()
    yield* (yield* WorkspaceRepo).insert({
      id: "ws_BENCH",
      name: "bench",
      ownerEmail: "bench@herald-customer.org",
      plan: "pro",
      claimed: true,
      locale: "en",
      timeZone: "UTC",
      approvalMail: "each",
      createdAt: now,
      expiresAt: null
    })
    yield* (yield* ApiKeyRepo).insert({
      id: "key_BENCH",
      workspaceId: "ws_BENCH",
      name: "bench",
      prefix: keyText.slice(5, 13),
      hash: createHash("sha256").update(keyText).digest("hex"),
      requireApproval: false,
      createdAt: now,
      revokedAt: null,
      lastUsedAt: null
    })
    for (const statement of (process.env.BENCH_EXTRA_SQL ?? "").split(";;").filter((s) => s.trim() !== ""))
      yield* (yield* SqlClient.SqlClient).unsafe(statement)
    yield* (yield* AccountRepo).upsert({
      id: "acc_BENCH",
      workspaceId: "ws_BENCH",
      platform: "sandbox",
      name: "bench",
      username: "bench",
      avatarUrl: null,
      status: "connected",
      connectedAt: now,
      externalId: "bench"
    })
  }).pipe(
    Effect.orDie,
    Effect.provide(
      Postgres.storageLayer.pipe(Layer.provideMerge(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
    ),
    Effect.runPromise
  )

export const run = async () => {
  const heraldDb = await createDatabaseForProcesses()
  const baselineDb = await createDatabaseForProcesses()
  // The databases go whatever happens after this (a failing seed or server start included).
  try {
    return await measure(heraldDb.url, baselineDb.url)
  } finally {
    await heraldDb.drop()
    await baselineDb.drop()
  }
}

const measure = async (heraldDbUrl: string, baselineDbUrl: string) => {
  const keyText = "hrld_" + "B".repeat(43)
  await seed(heraldDbUrl, keyText)
  const scheduledFor = new Date(Date.now() + 3_600_000).toISOString()
  const body = (n: number) =>
    JSON.stringify({
      accountIds: ["acc_BENCH"],
      content: `bench post ${n}`,
      scheduledFor,
      ...(process.env.BENCH_DRY_RUN ? { dryRun: true } : {})
    })
  const [heraldPort, baselinePort] = [await freePort(), await freePort()]
  // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the Herald process there (open in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []
  // BENCH_HERALD_FLAGS="--perf-basic-prof ..." passes node flags to the Herald process.
  const flags = (process.env.BENCH_HERALD_FLAGS ?? "").split(" ").filter((f) => f !== "")
  const herald = startProcess([...profile, ...flags, ...nodeArgsOf("http")], {
    PORT: String(heraldPort),
    DATABASE_URL: heraldDbUrl,
    HERALD_DATA_DIR: `${root}/.bench/http-data`,
    // One key at thousands of creates a second: the request limits run (and lease) but are never reached.
    HERALD_KEY_REQUESTS_PER_MINUTE: "1000000000",
    HERALD_WORKSPACE_REQUESTS_PER_MINUTE: "1000000000"
  })
  const baseline = startProcess(["--input-type=module", "-e", baselineScript], {
    PORT: String(baselinePort),
    DATABASE_URL: baselineDbUrl
  })
  try {
    await waitUp(`http://127.0.0.1:${heraldPort}/api/v1/posts`, herald.child, herald.log)
    await waitUp(`http://127.0.0.1:${baselinePort}/`, baseline.child, baseline.log)
    const headers = { "content-type": "application/json", authorization: `Bearer ${keyText}` }
    const baseCpu = cpuMeter(baseline.child.pid!)
    const ourCpu = cpuMeter(herald.child.pid!)
    const baseUrl = `http://127.0.0.1:${baselinePort}/`
    const ourUrl = `http://127.0.0.1:${heraldPort}/api/v1/posts`
    // BENCH_IDEMPOTENCY=1: every request carries its own Idempotency-Key (the baseline ignores it).
    const keyed = () => {
      if (!process.env.BENCH_IDEMPOTENCY) return {}
      const slice = randomBytes(6).toString("hex")
      return { headersOf: (n: number) => ({ "idempotency-key": `bench-${slice}-${n}` }) }
    }
    const slice = (url: string, seconds: number, warmupSeconds: number, onMeasure?: ReturnType<typeof cpuMeter>) =>
      load({
        url,
        connections: CONNECTIONS,
        seconds,
        warmupSeconds,
        headers,
        body,
        okStatus: 201,
        ...(onMeasure ? { onMeasure } : {}),
        ...keyed()
      })
    await slice(baseUrl, WARMUP_SECONDS, 0)
    await slice(ourUrl, WARMUP_SECONDS, 0)
    // Measured in alternating rounds, so a change in the machine's speed during the run (it drifts,
    // sometimes by a third within minutes) weighs on both sides alike.
    const baseRuns: Array<LoadResult> = []
    const ourRuns: Array<LoadResult> = []
    for (let round = 0; round < ROUNDS; round++) {
      baseRuns.push(await slice(baseUrl, SECONDS / ROUNDS, 0.5, baseCpu))
      ourRuns.push(await slice(ourUrl, SECONDS / ROUNDS, 0.5, ourCpu))
    }
    const [base, ours] = [combine(baseRuns), combine(ourRuns)]
    const perRequest = (cpu: number, r: { requests: number; errors: number }) =>
      Number((cpu / Math.max(1, r.requests + r.errors)).toFixed(3))
    const [o, b] = [ourCpu.used(), baseCpu.used()]
    const figures = {
      herald_rps: Math.round(ours.rps),
      herald_p50_ms: Number(ours.p50Ms.toFixed(2)),
      herald_p99_ms: Number(ours.p99Ms.toFixed(2)),
      herald_errors: ours.errors,
      herald_cpu_ms_per_req: perRequest(o.server, ours),
      herald_postgres_cpu_ms_per_req: perRequest(o.postgres, ours),
      herald_client_cpu_ms_per_req: perRequest(o.client, ours),
      baseline_rps: Math.round(base.rps),
      baseline_p50_ms: Number(base.p50Ms.toFixed(2)),
      baseline_p99_ms: Number(base.p99Ms.toFixed(2)),
      baseline_cpu_ms_per_req: perRequest(b.server, base),
      baseline_postgres_cpu_ms_per_req: perRequest(b.postgres, base),
      baseline_client_cpu_ms_per_req: perRequest(b.client, base),
      throughput_ratio: Number((ours.rps / base.rps).toFixed(3))
    }
    const cpu = (server: number, postgres: number, client: number) =>
      `CPU ms/request: server ${server}, PostgreSQL ${postgres}, load client ${client}`
    console.log(
      `POST /posts on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s each in ${ROUNDS} alternating rounds (after ${WARMUP_SECONDS} s warm-up)`
    )
    console.log(
      `  Herald   ${figures.herald_rps} req/s  p50 ${figures.herald_p50_ms} ms  p99 ${figures.herald_p99_ms} ms  non-201: ${ours.errors} ${JSON.stringify(ours.statuses)}`
    )
    console.log(
      `           ${cpu(figures.herald_cpu_ms_per_req, figures.herald_postgres_cpu_ms_per_req, figures.herald_client_cpu_ms_per_req)}`
    )
    console.log(
      `  baseline ${figures.baseline_rps} req/s  p50 ${figures.baseline_p50_ms} ms  p99 ${figures.baseline_p99_ms} ms  (node:http + pg, one INSERT)`
    )
    console.log(
      `           ${cpu(figures.baseline_cpu_ms_per_req, figures.baseline_postgres_cpu_ms_per_req, figures.baseline_client_cpu_ms_per_req)}`
    )
    console.log(`  ratio ${figures.throughput_ratio} (target >= 0.5), p99 target <= 25 ms`)
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    await stop(herald.child)
    if (process.env.BENCH_HERALD_LOG)
      (await import("node:fs")).writeFileSync(process.env.BENCH_HERALD_LOG, herald.log())
    await stop(baseline.child)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run()
