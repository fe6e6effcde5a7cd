import type { ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { JobQueue, type Job } from "../application/ports/JobQueue.ts"
import { PostRepo } from "../application/ports/PostRepo.ts"
import type { Post } from "../domain/post.ts"
import { exited, freshDatabase, runtimeFor, seedWorkspace, spawnScheduler } from "../test/scheduler/pg.ts"

/*
 * `npm run bench -- scheduler`: N due targets published to the sandbox network by 2 scheduler
 * processes on PostgreSQL. Posts are stored first with their jobs far in the future; once both
 * schedulers are up, one UPDATE moves the jobs to fall due evenly over `--spread-ms` from now.
 * Lag is due time -> the sandbox receiving the post (an upper bound of due -> start); start lag is
 * due time -> the lease that picked the job up, recorded by a bench-only trigger on the jobs table.
 * Transactions per target come from pg_stat_database (each statement outside a transaction is one);
 * PostgreSQL's CPU from /proc, every postgres process of the machine: run it on a quiet machine.
 */

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "scheduler"),
  options: {
    targets: { type: "string", default: "10000" },
    "per-post": { type: "string", default: "1" },
    "spread-ms": { type: "string", default: "5000" },
    schedulers: { type: "string", default: "2" },
    // Unset: the scheduler's defaults (what the targets are about).
    concurrency: { type: "string" }
  }
})
const TARGETS = Number(values.targets)
const PER_POST = Number(values["per-post"])
const SPREAD_MS = Number(values["spread-ms"])
const SCHEDULERS = Number(values.schedulers)
const BASE = Date.UTC(2100, 0, 1)
const LATENCY_MS = Number(process.env.HERALD_SANDBOX_LATENCY_MS ?? 0)

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
const cpuMs = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}

/** CPU time of every PostgreSQL process on this machine, in ms: the database's share (valid only on a quiet machine). */
const postgresCpuMs = (): number =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres" ? sum + cpuMs(Number(pid)) : sum
      } catch {
        return sum
      }
    }, 0)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

/** Waits for a child's first log line: the scheduler says what it runs once its layers are built. */
const ready = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", () => undefined)
    child.stdout?.on("data", (chunk: Buffer) => (chunk.toString().includes("scheduler:") ? resolve() : undefined))
    child.once("exit", (code) => reject(new Error(`scheduler exited early (${code})`)))
  })

export const run = async () => {
  const db = await freshDatabase("herald_bench")
  const runtime = runtimeFor(db.url, 16)
  const children: Array<ChildProcess> = []
  try {
    const posts = Math.ceil(TARGETS / PER_POST)
    console.log(
      `scheduler bench: ${TARGETS} targets (${posts} posts x ${PER_POST}), ${SCHEDULERS} schedulers, due over ${SPREAD_MS} ms, ` +
        `network latency ${LATENCY_MS} ms per call (HERALD_SANDBOX_LATENCY_MS), worker settings ${values.concurrency === undefined ? "default" : `concurrency ${values.concurrency}`}`
    )
    const seeded = Date.now()
    const dueOffset = await runtime.runPromise(
      Effect.gen(function* () {
        const { workspaceId, agent, accountIds } = yield* seedWorkspace(PER_POST)
        const repo = yield* PostRepo
        const queue = yield* JobQueue
        const offsets = new Map<string, number>()
        yield* Effect.forEach(
          Array.from({ length: posts }, (_, i) => i),
          (i) =>
            Effect.gen(function* () {
              const id = `post_bench${String(i).padStart(7, "0")}`
              const offset = Math.floor((i * SPREAD_MS) / posts)
              offsets.set(id, offset)
              const post: Post = {
                id,
                workspaceId,
                status: "scheduled",
                content: `bench ${i}`,
                mediaIds: [],
                firstComment: null,
                thread: [],
                poll: null,
                cover: null,
                tiktokAiGenerated: false,
                networkOptions: {},
                overrides: {},
                scheduledFor: BASE + offset,
                requireApproval: false,
                createdBy: { kind: "key", id: agent.kind === "key" ? agent.keyId : "", name: "bench" },
                createdAt: Date.now(),
                updatedAt: Date.now(),
                publishedAt: null,
                deletedAt: null,
                deletedReason: null,
                targets: accountIds.map((accountId) => ({
                  accountId,
                  platform: "sandbox" as const,
                  status: "scheduled" as const,
                  externalId: null,
                  url: null,
                  publishedAt: null,
                  error: null,
                  firstComment: null,
                  thread: [],
                  attempts: 0
                }))
              }
              yield* repo.insert(post)
              const jobs: Array<Job> = accountIds.map((accountId, k) => ({
                id: `job_bench${String(i).padStart(7, "0")}_${k}`,
                kind: "publish",
                workspaceId,
                postId: id,
                accountId,
                runAt: BASE + offset,
                attempts: 0
              }))
              yield* queue.enqueue(jobs)
            }),
          { concurrency: 16, discard: true }
        )
        return offsets
      })
    )
    console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s; starting schedulers`)

    const env: Record<string, string> = {
      HERALD_SWEEPERS: "false",
      LOG_LEVEL: "Info",
      ...(values.concurrency === undefined ? {} : { HERALD_WORKER_CONCURRENCY: values.concurrency }),
      ...(process.env.BENCH_DB_CONNECTIONS === undefined
        ? {}
        : { DATABASE_POOL_SIZE: process.env.BENCH_DB_CONNECTIONS })
    }
    for (let i = 0; i < SCHEDULERS; i++) {
      const child = spawnScheduler(db.url, env, ["ignore", "pipe", "pipe"])
      children.push(child)
    }
    await Promise.all(children.map(ready))

    // Bench only: remember when each job was first leased (its lease_until leaves NULL), against its run_at.
    await runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE bench_starts (job_id text PRIMARY KEY, run_at timestamptz NOT NULL, started_at timestamptz NOT NULL)`
        yield* sql.unsafe(`CREATE FUNCTION bench_started() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO bench_starts VALUES (NEW.id, NEW.run_at, clock_timestamp()) ON CONFLICT (job_id) DO NOTHING;
          RETURN NEW;
        END $$`)
        yield* sql.unsafe(`CREATE TRIGGER bench_started AFTER UPDATE OF lease_until ON jobs FOR EACH ROW
        WHEN (OLD.lease_until IS NULL AND NEW.lease_until IS NOT NULL) EXECUTE FUNCTION bench_started()`)
      })
    )
    const xacts = () =>
      runtime
        .runPromise(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql<{
                n: string
              }>`SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = current_database()`
          )
        )
        .then((r) => Number(r[0].n))
    await sleep(1_000)
    const xactsBefore = await xacts()
    const cpuBefore = children.reduce((sum, c) => sum + cpuMs(c.pid), 0)
    const postgresBefore = postgresCpuMs()
    const t0 = Date.now() + 500
    const shift = t0 - BASE
    await runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE jobs SET run_at = run_at + ${`${shift} milliseconds`}::interval, available_at = available_at + ${`${shift} milliseconds`}::interval`
      })
    )
    const remaining = () =>
      runtime
        .runPromise(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs`)
        )
        .then((r) => r[0].n)
    while ((await remaining()) > 0) {
      if (Date.now() - t0 > 120_000) throw new Error("the schedulers did not finish within 120 s")
      await sleep(200)
    }
    const finished = Date.now()
    const schedulerCpuMs = children.reduce((sum, c) => sum + cpuMs(c.pid), 0) - cpuBefore
    const postgresMs = postgresCpuMs() - postgresBefore
    // Statistics reach pg_stat_database within about a second.
    await sleep(1_500)
    const xactsDuring = (await xacts()) - xactsBefore
    const startLags = (
      await runtime.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ ms: number }>`SELECT (extract(epoch FROM started_at - run_at) * 1000)::float8 AS ms FROM bench_starts`
        )
      )
    )
      .map((r) => Math.round(r.ms))
      .sort((a, b) => a - b)

    const ledger = await runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{ post_id: string; account_id: string; at: string }>`SELECT post_id, account_id, at FROM sandbox_ledger`
      )
    )
    const seen = new Map<string, number>()
    for (const r of ledger)
      seen.set(`${r.post_id}:${r.account_id}`, (seen.get(`${r.post_id}:${r.account_id}`) ?? 0) + 1)
    const duplicates = [...seen.values()].reduce((sum, n) => sum + (n - 1), 0)
    const missing = posts * PER_POST - seen.size
    const lags = ledger.map((r) => Number(r.at) - (t0 + dueOffset.get(r.post_id)!)).sort((a, b) => a - b)
    const last = Math.max(...ledger.map((r) => Number(r.at)))
    const figures = {
      targets: posts * PER_POST,
      schedulers: SCHEDULERS,
      total_seconds: Number(((last - t0) / 1000).toFixed(3)),
      duplicates,
      missing,
      lag_p50_ms: percentile(lags, 50),
      lag_p99_ms: percentile(lags, 99),
      lag_max_ms: lags[lags.length - 1],
      throughput_per_s: Math.round(ledger.length / ((last - t0) / 1000)),
      start_lag_p50_ms: percentile(startLags, 50),
      start_lag_p99_ms: percentile(startLags, 99),
      start_lag_max_ms: startLags[startLags.length - 1],
      scheduler_cpu_ms_per_target: Number((schedulerCpuMs / ledger.length).toFixed(3)),
      db_transactions_per_target: Number((xactsDuring / ledger.length).toFixed(3)),
      postgres_cpu_ms_per_target: Number((postgresMs / ledger.length).toFixed(3)),
      postgres_cpu_share: Number((postgresMs / (finished - t0)).toFixed(2)),
      spread_ms: SPREAD_MS,
      network_latency_ms: LATENCY_MS
    }
    console.log(
      `published ${ledger.length} in ${figures.total_seconds} s (queue empty after ${((finished - t0) / 1000).toFixed(2)} s), ` +
        `${duplicates} duplicates, ${missing} missing, lag p50 ${figures.lag_p50_ms} ms, p99 ${figures.lag_p99_ms} ms, max ${figures.lag_max_ms} ms, ` +
        `start lag (due -> leased) p50 ${figures.start_lag_p50_ms} ms, p99 ${figures.start_lag_p99_ms} ms, ` +
        `scheduler CPU ${figures.scheduler_cpu_ms_per_target} ms per target, ${figures.db_transactions_per_target} database transactions per target, ` +
        `PostgreSQL CPU ${figures.postgres_cpu_ms_per_target} ms per target (${figures.postgres_cpu_share} cores busy while it ran)`
    )
    console.log(JSON.stringify(figures))
    return figures
  } finally {
    for (const c of children) c.kill("SIGTERM")
    await Promise.all(children.map(exited))
    await runtime.dispose()
    await db.drop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await run()
