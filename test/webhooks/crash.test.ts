import type { ChildProcess } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { createWebhook } from "../../application/usecases/webhooks/manage.ts"
import { exited, freshDatabase, pgCore, seedWorkspace, spawnScheduler } from "../scheduler/pg.ts"
import { withTestServer } from "../support/postgres.ts"
import { startReceiver } from "./receiver.ts"

const POSTS = 120
const KILL_FOR_MS = 10_000

const schedulerEnv = {
  HERALD_SECRET: "herald test secret",
  HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true",
  HERALD_WEBHOOK_LEASE_MS: "1500",
  HERALD_WEBHOOK_POLL_MS: "50",
  HERALD_WEBHOOK_TIMEOUT_MS: "1000",
  HERALD_WEBHOOK_RETRIES_MS: "100,200,400,800,800,800,800,800,800,800",
  HERALD_LEASE_MS: "1500",
  HERALD_POLL_MS: "50",
  HERALD_SANDBOX_LATENCY_MS: "20",
  HERALD_SWEEPERS: "false",
  DATABASE_POOL_SIZE: "4",
  HERALD_SHUTDOWN_GRACE_MS: "1000",
  LOG_LEVEL: "Warning"
}

const suite = () => {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
  afterAll(async () => {
    await db?.drop()
  })

  it("two schedulers SIGKILLed again and again still deliver every event, signed, in order per post, each with one id", async () => {
    db = await freshDatabase("herald_hooks")
    const runtime = ManagedRuntime.make(
      Layer.merge(pgCore(db.url, 5), HttpWebhookSender.layer({ allowLoopback: true }))
    )
    // A receiver that takes its time (so kills land mid-delivery) and refuses about one request in six.
    const receiver = await startReceiver({ answer: () => (Math.random() < 1 / 6 ? 503 : 200) })
    const schedulers: Array<ChildProcess> = []
    try {
      const start = Date.now()
      const postIds = await runtime.runPromise(
        Effect.gen(function* () {
          const { agent, accountIds } = yield* seedWorkspace(1)
          const created = yield* createWebhook(agent, { url: receiver.url })
          receiver.setSecret(created.secret)
          const ids: Array<string> = []
          for (let i = 0; i < POSTS; i++) {
            const made = yield* createPost(
              agent,
              { accountIds, content: `p${i}`, scheduledFor: new Date(Date.now() + 3_000 + i * 50).toISOString() },
              null
            )
            if (made.kind !== "created") throw new Error("not created")
            ids.push(made.body.post.id)
          }
          return ids
        })
      )
      schedulers.push(spawnScheduler(db.url, schedulerEnv), spawnScheduler(db.url, schedulerEnv))
      while (receiver.received.length === 0 && Date.now() - start < 60_000) await sleep(50)
      const killsFrom = Date.now()
      let kills = 0
      while (Date.now() - killsFrom < KILL_FOR_MS) {
        await sleep(800 + Math.random() * 800)
        const victim = kills % 2
        schedulers[victim]!.kill("SIGKILL")
        await exited(schedulers[victim]!)
        kills++
        schedulers[victim] = spawnScheduler(db.url, schedulerEnv)
      }
      const query = <A extends object>(text: string) =>
        runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text)))
      while (Date.now() - start < 75_000) {
        const [{ jobs, pending }] = await query<{ jobs: number; pending: number }>(
          `SELECT (SELECT count(*)::int FROM jobs) AS jobs, (SELECT count(*)::int FROM webhook_deliveries WHERE status <> 'succeeded') AS pending`
        )
        if (jobs === 0 && pending === 0) break
        await sleep(200)
      }
      const events = await query<{ id: string; resource_id: string; type: string }>(
        `SELECT id, resource_id, type FROM events WHERE resource_kind = 'post' ORDER BY seq`
      )
      const failed = await query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE status <> 'succeeded'`)

      const accepted = receiver.accepted()
      const acceptedIds = new Set(accepted.map((r) => r.id))
      const twice = accepted.length - acceptedIds.size
      console.info(
        `webhook crash test: ${kills} SIGKILLs, ${events.length} events, ${receiver.received.length} requests, ${receiver.received.length - accepted.length} refused by the receiver, ${twice} accepted again after a kill, ${((Date.now() - start) / 1000).toFixed(1)} s`
      )

      assert.isAtLeast(kills, 4)
      assert.strictEqual(events.length, POSTS * 3, "post.created, target.published and post.published for every post")
      assert.deepStrictEqual(failed, [], "every delivery succeeded in the end")
      assert.deepStrictEqual(
        events.filter((e) => !acceptedIds.has(e.id)).map((e) => e.type),
        [],
        "every event reached the receiver"
      )
      assert.strictEqual(acceptedIds.size, events.length, "nothing arrived that is not an event")
      assert.isTrue(
        receiver.received.every((r) => r.verified),
        "every request verifies with the standardwebhooks library"
      )
      for (const r of receiver.received) assert.strictEqual((JSON.parse(r.body) as { id: string }).id, r.id)
      // In order per post: each event first arrived after the one before it.
      const firstArrival = new Map<string, number>()
      accepted.forEach((r, i) => firstArrival.has(r.id) || firstArrival.set(r.id, i))
      for (const id of postIds) {
        const mine = events.filter((e) => e.resource_id === id)
        assert.deepStrictEqual(
          mine.map((e) => e.type),
          ["post.created", "target.published", "post.published"]
        )
        const order = mine.map((e) => firstArrival.get(e.id)!)
        assert.deepStrictEqual(
          order,
          [...order].sort((a, b) => a - b),
          `events of ${id} arrived in order`
        )
      }
    } finally {
      for (const s of schedulers) s.kill("SIGTERM")
      await Promise.all(schedulers.map(exited))
      await receiver.close()
      await runtime.dispose()
    }
  }, 110_000)
}

await withTestServer("webhook crash test (PostgreSQL, real processes)", () =>
  describe("webhook crash test (PostgreSQL, real processes)", suite)
)
