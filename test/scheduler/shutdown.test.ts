import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createPost } from "../../application/usecases/posts/create.ts"
import { exited, freshDatabase, runtimeFor, seedWorkspace, spawnScheduler } from "./pg.ts"
import { withTestServer } from "../support/postgres.ts"

const env = (latencyMs: number, graceMs: number) => ({
  HERALD_POLL_MS: "50",
  HERALD_LEASE_MS: "30000",
  HERALD_SWEEPERS: "false",
  DATABASE_POOL_SIZE: "3",
  HERALD_SANDBOX_LATENCY_MS: String(latencyMs),
  HERALD_SHUTDOWN_GRACE_MS: String(graceMs),
  LOG_LEVEL: "Warning"
})

const suite = () => {
  const dbs: Array<{ drop: () => Promise<void> }> = []
  afterAll(async () => {
    for (const db of dbs) await db.drop()
  })

  /** A database with one post due in 2 s; returns a runtime on it and a helper reading the queue. */
  const scenario = async () => {
    const db = await freshDatabase("herald_jobs")
    dbs.push(db)
    const runtime = runtimeFor(db.url, 2)
    await runtime.runPromise(
      Effect.gen(function* () {
        const { agent, accountIds } = yield* seedWorkspace(1)
        yield* createPost(
          agent,
          { accountIds, content: "Shutdown", scheduledFor: new Date(Date.now() + 2_000).toISOString() },
          null
        )
      })
    )
    const query = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
      runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
    const jobs = () =>
      query(
        (sql) =>
          sql<{
            lease_until: Date | null
            checkpoint_handle: string | null
          }>`SELECT lease_until, checkpoint_handle FROM jobs`
      )
    const ledger = () => query((sql) => sql<{ external_id: string }>`SELECT external_id FROM sandbox_ledger`)
    const status = () =>
      query((sql) => sql<{ status: string }>`SELECT status FROM posts`).then((rows) => rows[0].status)
    const leased = async () => {
      while (!(await jobs()).some((j) => j.lease_until !== null)) await sleep(25)
    }
    return { db, runtime, jobs, ledger, status, leased }
  }

  it("SIGTERM lets a job in flight finish within the grace period", async () => {
    const s = await scenario()
    const scheduler = spawnScheduler(s.db.url, env(1_000, 10_000))
    await s.leased()
    scheduler.kill("SIGTERM")
    assert.strictEqual(await exited(scheduler), 0)
    assert.strictEqual((await s.ledger()).length, 1)
    assert.strictEqual(await s.status(), "published")
    assert.deepStrictEqual(await s.jobs(), [])
    await s.runtime.dispose()
  }, 60_000)

  it("SIGTERM hands a job that cannot finish in time back to the queue; the next scheduler recovers it", async () => {
    const s = await scenario()
    const first = spawnScheduler(s.db.url, env(6_000, 300))
    await s.leased()
    await sleep(200)
    first.kill("SIGTERM")
    assert.strictEqual(await exited(first), 0)
    const [job] = await s.jobs()
    assert.isNull(job.lease_until, "released, not left to its lease")
    assert.isNotNull(job.checkpoint_handle, "the checkpoint stays for the next worker")
    assert.strictEqual((await s.ledger()).length, 0)
    const second = spawnScheduler(s.db.url, env(0, 1_000))
    while ((await s.jobs()).length > 0) await sleep(50)
    second.kill("SIGTERM")
    await exited(second)
    const ledger = await s.ledger()
    assert.deepStrictEqual(
      ledger.map((r) => r.external_id),
      [job.checkpoint_handle],
      "sent once, with the stored handle"
    )
    assert.strictEqual(await s.status(), "published")
    await s.runtime.dispose()
  }, 60_000)
}

await withTestServer("scheduler shutdown (PostgreSQL, real processes)", () =>
  describe("scheduler shutdown (PostgreSQL, real processes)", suite)
)
