import type { ChildProcess } from "node:child_process"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { createWebhook } from "../../application/usecases/webhooks/manage.ts"
import { withTestServer } from "../support/postgres.ts"
import { exited, freshDatabase, pgCore, seedWorkspace, spawnReadyScheduler } from "./pg.ts"

const POSTS = 6
const RESUME_WITHIN_MS = 15_000

// The default leases and heartbeat (no HERALD_LEASE_MS): what a deployment gets.
const schedulerEnv = {
  HERALD_SECRET: "herald test secret",
  HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true",
  // A network call in flight for seconds, so the kill lands mid-publish.
  HERALD_SANDBOX_LATENCY_MS: "4000",
  HERALD_SWEEPERS: "false",
  DATABASE_POOL_SIZE: "4",
  LOG_LEVEL: "Warning"
}

const suite = () => {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
  afterAll(async () => {
    await db?.drop()
  })

  it("a scheduler SIGKILLed mid-work: its jobs and deliveries resume within 15 s of the restart, each post published once", async () => {
    db = await freshDatabase("herald_recovery")
    const runtime = ManagedRuntime.make(
      Layer.merge(pgCore(db.url, 4), HttpWebhookSender.layer({ allowLoopback: true }))
    )
    // A receiver that never answers an event's first request (the killed scheduler holds it) and answers again at once.
    const arrivals = new Map<string, Array<number>>()
    const hanging: Array<ServerResponse> = []
    const server = createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        const id = String(req.headers["webhook-id"])
        const seen = arrivals.get(id) ?? []
        arrivals.set(id, [...seen, Date.now()])
        if (seen.length === 0) hanging.push(res)
        else res.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
    const query = <A extends object>(text: string) =>
      runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text)))
    const schedulers: Array<ChildProcess> = []
    try {
      await runtime.runPromise(
        Effect.gen(function* () {
          const { agent, accountIds } = yield* seedWorkspace(1)
          yield* createWebhook(agent, { url, eventTypes: ["post.created"] })
          for (let i = 0; i < POSTS; i++) yield* createPost(agent, { accountIds, content: `recovery ${i}` }, null)
        })
      )
      const first = spawnReadyScheduler(db.url, schedulerEnv)
      schedulers.push(first.child)
      await first.ready
      // Mid-work: every event's first request hangs at the receiver, and jobs are out with the network.
      const start = Date.now()
      const leasedJobs = () =>
        query<{ id: string; attempts: number }>(`SELECT id, attempts FROM jobs WHERE lease_until > now()`)
      while ((arrivals.size < POSTS || (await leasedJobs()).length === 0) && Date.now() - start < 30_000)
        await sleep(50)
      const held = await leasedJobs()
      assert.isAbove(held.length, 0, "jobs were in flight when the scheduler was killed")
      assert.strictEqual(arrivals.size, POSTS, "every event's first request was in flight")
      first.child.kill("SIGKILL")
      await exited(first.child)
      const restartedAt = Date.now()
      schedulers.push(spawnReadyScheduler(db.url, schedulerEnv).child)

      let jobsResumedMs: number | null = null
      let deliveriesResumedMs: number | null = null
      while ((jobsResumedMs === null || deliveriesResumedMs === null) && Date.now() - restartedAt < 40_000) {
        await sleep(100)
        if (jobsResumedMs === null) {
          const now = new Map(
            (await query<{ id: string; attempts: number }>(`SELECT id, attempts FROM jobs`)).map((j) => [
              j.id,
              j.attempts
            ])
          )
          if (held.every((j) => (now.get(j.id) ?? Number.POSITIVE_INFINITY) > j.attempts))
            jobsResumedMs = Date.now() - restartedAt
        }
        if (deliveriesResumedMs === null && [...arrivals.values()].every((a) => a.length >= 2))
          deliveriesResumedMs = Date.now() - restartedAt
      }
      console.info(
        `recovery test: ${held.length} jobs and ${POSTS} deliveries held by the killed scheduler; jobs resumed ${jobsResumedMs} ms and deliveries ${deliveriesResumedMs} ms after the restart`
      )
      assert.isNotNull(jobsResumedMs)
      assert.isNotNull(deliveriesResumedMs)
      assert.isBelow(jobsResumedMs!, RESUME_WITHIN_MS)
      assert.isBelow(deliveriesResumedMs!, RESUME_WITHIN_MS)

      // Then everything finishes, each post on the network once.
      while (Date.now() - restartedAt < 60_000) {
        const [{ jobs }] = await query<{ jobs: number }>(`SELECT count(*)::int AS jobs FROM jobs`)
        if (jobs === 0) break
        await sleep(200)
      }
      const ledger = await query<{ content: string; publishes: number }>(
        `SELECT content, publishes FROM sandbox_ledger`
      )
      assert.strictEqual(ledger.length, POSTS)
      assert.strictEqual(new Set(ledger.map((r) => r.content)).size, POSTS, "no post twice")
      assert.isTrue(
        ledger.every((r) => r.publishes === 1),
        "one call reached the network per post"
      )
    } finally {
      for (const s of schedulers) s.kill("SIGTERM")
      await Promise.all(schedulers.map(exited))
      for (const res of hanging) res.destroy()
      server.close()
      await runtime.dispose()
    }
  }, 120_000)
}

await withTestServer("crash recovery (PostgreSQL, real processes, default leases)", () =>
  describe("crash recovery (PostgreSQL, real processes, default leases)", suite)
)
