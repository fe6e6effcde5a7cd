import type { ChildProcess } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { JobQueue } from "../application/ports/JobQueue.ts"
import { PostRepo } from "../application/ports/PostRepo.ts"
import type { Post } from "../domain/post.ts"
import { exited, freshDatabase, runtimeFor, seedWorkspace, spawnScheduler } from "../test/scheduler/pg.ts"

/*
 * `npm run bench -- metrics`: a full refresh of N published targets' figures by 2 scheduler processes
 * on PostgreSQL, while the same schedulers publish P posts due over `--spread-ms`, every network call
 * (reads and publishes) taking HERALD_SANDBOX_LATENCY_MS (default here 500). The targets are the
 * sandbox's (its stand-in read takes 100 posts a call, like X's GET /2/tweets); the nine networks'
 * own batch sizes and limits are the adapters' and their tests'. Refresh lag is due -> figures stored;
 * calls per target count the reads (one stored batch per call); publishing lag is due -> the sandbox
 * receiving the post.
 */

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "metrics"),
  options: {
    targets: { type: "string", default: "10000" },
    accounts: { type: "string", default: "100" },
    posts: { type: "string", default: "1000" },
    "spread-ms": { type: "string", default: "20000" },
    schedulers: { type: "string", default: "2" },
    // Unset: the scheduler's default (HERALD_METRICS_BATCH, due targets leased per look).
    batch: { type: "string" }
  }
})
const TARGETS = Number(values.targets)
const ACCOUNTS = Number(values.accounts)
const POSTS = Number(values.posts)
const SPREAD_MS = Number(values["spread-ms"])
const SCHEDULERS = Number(values.schedulers)
const LATENCY_MS = Number(process.env.HERALD_SANDBOX_LATENCY_MS ?? 500)
const BASE = Date.UTC(2100, 0, 1)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const ready = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", () => undefined)
    child.stdout?.on("data", (chunk: Buffer) => (chunk.toString().includes("scheduler:") ? resolve() : undefined))
    child.once("exit", (code) => reject(new Error(`scheduler exited early (${code})`)))
  })

export const run = async () => {
  const db = await freshDatabase("herald_bench_metrics")
  const runtime = runtimeFor(db.url, 16)
  const children: Array<ChildProcess> = []
  const sqlRun = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
  try {
    console.log(
      `metrics bench: ${TARGETS} published targets on ${ACCOUNTS} accounts, ${SCHEDULERS} schedulers, ` +
        `${POSTS} posts published meanwhile over ${SPREAD_MS} ms, network latency ${LATENCY_MS} ms per call`
    )
    const seeded = Date.now()
    const { workspaceId, accountIds } = await runtime.runPromise(
      Effect.gen(function* () {
        const seed = yield* seedWorkspace(ACCOUNTS)
        const repo = yield* PostRepo
        const queue = yield* JobQueue
        yield* Effect.forEach(
          Array.from({ length: POSTS }, (_, i) => i),
          (i) =>
            Effect.gen(function* () {
              const id = `post_bench${String(i).padStart(7, "0")}`
              const accountId = seed.accountIds[i % seed.accountIds.length]!
              const runAt = BASE + Math.floor((i * SPREAD_MS) / POSTS)
              const post: Post = {
                id,
                workspaceId: seed.workspaceId,
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
                scheduledFor: runAt,
                requireApproval: false,
                createdBy: { kind: "key", id: "bench", name: "bench" },
                createdAt: Date.now(),
                updatedAt: Date.now(),
                publishedAt: null,
                deletedAt: null,
                deletedReason: null,
                targets: [
                  {
                    accountId,
                    platform: "sandbox",
                    status: "scheduled",
                    externalId: null,
                    url: null,
                    publishedAt: null,
                    error: null,
                    firstComment: null,
                    thread: [],
                    attempts: 0
                  }
                ]
              }
              yield* repo.insert(post)
              yield* queue.enqueue([
                {
                  id: `job_bench${String(i).padStart(7, "0")}`,
                  kind: "publish",
                  workspaceId: seed.workspaceId,
                  postId: id,
                  accountId,
                  runAt,
                  attempts: 0
                }
              ])
            }),
          { concurrency: 16, discard: true }
        )
        return seed
      })
    )
    // The published targets (their sandbox records too, which the stand-in read answers from), due far ahead for now.
    await sqlRun(
      (sql) => sql`
        INSERT INTO metric_targets (post_id, account_id, workspace_id, platform, external_id, published_at, due_at)
        SELECT 'mpost_' || lpad(i::text, 8, '0'), (${accountIds}::text[])[1 + i % ${ACCOUNTS}], ${workspaceId}, 'sandbox',
          'sbx_m' || i, now() - interval '2 hours', ${new Date(BASE)}
        FROM generate_series(0, ${TARGETS - 1}) AS i`
    )
    await sqlRun(
      (sql) => sql`
        INSERT INTO sandbox_ledger (external_id, account_id, post_id, content, media_ids, extra, at)
        SELECT 'sbx_m' || i, (${accountIds}::text[])[1 + i % ${ACCOUNTS}], 'mpost_' || lpad(i::text, 8, '0'), 'published', '[]', '{}', 0
        FROM generate_series(0, ${TARGETS - 1}) AS i`
    )
    console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s; starting schedulers`)

    const env: Record<string, string> = {
      HERALD_SWEEPERS: "false",
      HERALD_WEBHOOKS: "false",
      HERALD_SANDBOX_LATENCY_MS: String(LATENCY_MS),
      HERALD_METRICS_POLL_MS: "200",
      ...(values.batch === undefined ? {} : { HERALD_METRICS_BATCH: values.batch }),
      LOG_LEVEL: "Info"
    }
    for (let i = 0; i < SCHEDULERS; i++) children.push(spawnScheduler(db.url, env, ["ignore", "pipe", "pipe"]))
    await Promise.all(children.map(ready))
    await sleep(1_000)

    const t0 = Date.now() + 500
    const shift = `${t0 - BASE} milliseconds`
    await sqlRun(
      (sql) =>
        sql`UPDATE jobs SET run_at = run_at + ${shift}::interval, available_at = available_at + ${shift}::interval`
    )
    await sqlRun((sql) => sql`UPDATE metric_targets SET due_at = ${new Date(t0)} WHERE post_id LIKE 'mpost_%'`)

    const left = () =>
      sqlRun(
        (sql) => sql<{ refresh: number; publish: number }>`
          SELECT (SELECT count(*)::int FROM metric_targets WHERE post_id LIKE 'mpost_%' AND stage = 0) AS refresh,
                 (SELECT count(*)::int FROM jobs) AS publish`
      ).then((r) => r[0]!)
    let refreshedAt: number | null = null
    for (;;) {
      const now = await left()
      if (now.refresh === 0 && refreshedAt === null) refreshedAt = Date.now()
      if (now.refresh === 0 && now.publish === 0) break
      if (Date.now() - t0 > 600_000) throw new Error(`not done within 600 s: ${JSON.stringify(now)}`)
      await sleep(250)
    }

    const read = await sqlRun(
      (sql) => sql<{ ms: number }>`
        SELECT (extract(epoch FROM latest_at) * 1000 - ${t0})::float8 AS ms FROM metric_targets WHERE post_id LIKE 'mpost_%'`
    )
    const refreshLags = read.map((r) => Math.round(r.ms)).sort((a, b) => a - b)
    const calls = await sqlRun(
      (sql) => sql<{ n: number }>`
        SELECT count(*)::int AS n FROM (SELECT DISTINCT account_id, read_at FROM metric_readings WHERE post_id LIKE 'mpost_%') c`
    )
    const published = await sqlRun(
      (sql) =>
        sql<{
          post_id: string
          at: string
        }>`SELECT post_id, at::text AS at FROM sandbox_ledger WHERE post_id LIKE 'post_bench%'`
    )
    const publishLags = published
      .map((r) => Number(r.at) - (t0 + Math.floor((Number(r.post_id.slice(10)) * SPREAD_MS) / POSTS)))
      .sort((a, b) => a - b)
    const figures = {
      targets: TARGETS,
      accounts: ACCOUNTS,
      schedulers: SCHEDULERS,
      network_latency_ms: LATENCY_MS,
      lease_batch: Number(values.batch ?? 500),
      full_refresh_seconds: Number((((refreshedAt ?? Date.now()) - t0) / 1000).toFixed(2)),
      refresh_lag_p50_ms: percentile(refreshLags, 50),
      refresh_lag_p99_ms: percentile(refreshLags, 99),
      refresh_lag_max_ms: refreshLags[refreshLags.length - 1] ?? 0,
      reads_per_s: Math.round(TARGETS / (((refreshedAt ?? Date.now()) - t0) / 1000)),
      calls_per_target: Number((calls[0]!.n / TARGETS).toFixed(4)),
      posts_published: published.length,
      publish_lag_p50_ms: percentile(publishLags, 50),
      publish_lag_p99_ms: percentile(publishLags, 99),
      publish_lag_max_ms: publishLags[publishLags.length - 1] ?? 0
    }
    console.log(
      `refreshed ${TARGETS} targets in ${figures.full_refresh_seconds} s (${figures.reads_per_s}/s), lag against due p50 ` +
        `${figures.refresh_lag_p50_ms} ms, p99 ${figures.refresh_lag_p99_ms} ms, ${figures.calls_per_target} calls per target; ` +
        `meanwhile published ${published.length}/${POSTS}, lag p50 ${figures.publish_lag_p50_ms} ms, p99 ${figures.publish_lag_p99_ms} ms, max ${figures.publish_lag_max_ms} ms`
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
