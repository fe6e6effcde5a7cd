import type { ChildProcess } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createPost } from "../../application/usecases/posts/create.ts"
import type { Post } from "../../domain/post.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { exited, freshDatabase, runtimeFor, seedWorkspace, spawnReadyScheduler } from "./pg.ts"
import { withTestServer } from "../support/postgres.ts"

const POSTS = 150
const ACCOUNTS = 2
const KILLS = 8
const KILL_FOR_MS = 40_000

const schedulerEnv = {
  HERALD_LEASE_MS: "1500",
  HERALD_POLL_MS: "50",
  HERALD_WORKER_CONCURRENCY: "8",
  HERALD_WORKER_BATCH: "8",
  HERALD_FIRST_COMMENT_DELAY_MS: "300",
  HERALD_SANDBOX_LATENCY_MS: "30",
  HERALD_SWEEPERS: "false",
  DATABASE_POOL_SIZE: "4",
  HERALD_SHUTDOWN_GRACE_MS: "2000",
  LOG_LEVEL: "Warning"
}

const suite = () => {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
  afterAll(async () => {
    await db?.drop()
  })

  it("SIGKILLed again and again while two run, schedulers still publish every target exactly once", async () => {
    db = await freshDatabase("herald_jobs")
    const runtime = runtimeFor(db.url, 5)
    const start = Date.now()
    // Posts with a thread and a first comment, falling due over ~9 s from 3 s ahead.
    const postIds = await runtime.runPromise(
      Effect.gen(function* () {
        const { agent, accountIds } = yield* seedWorkspace(ACCOUNTS)
        const ids: Array<string> = []
        for (let i = 0; i < POSTS; i++) {
          const created = yield* createPost(
            agent,
            {
              accountIds,
              content: `p${i} root`,
              thread: [`p${i} r1`, `p${i} r2`],
              firstComment: `p${i} comment`,
              scheduledFor: new Date(Date.now() + 3_000 + i * 60).toISOString()
            },
            null
          )
          if (created.kind !== "created") throw new Error("not created")
          ids.push(created.body.post.id)
        }
        return ids
      })
    )

    const running = [spawnReadyScheduler(db.url, schedulerEnv), spawnReadyScheduler(db.url, schedulerEnv)]
    const schedulers: Array<ChildProcess> = running.map((r) => r.child)
    // The kills start once publishing has (a slow start on a busy machine would otherwise spend them
    // on processes still loading, and none would land mid-job).
    const published = () =>
      runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM sandbox_ledger`)
      )
    while ((await published())[0].n === 0 && Date.now() - start < 60_000) await sleep(100)
    const killsFrom = Date.now()
    let kills = 0
    // Each kill lands on a scheduler that has started and worked a moment, however slowly it started.
    while (kills < KILLS && Date.now() - killsFrom < KILL_FOR_MS) {
      const victim = kills % 2
      await running[victim].ready
      await sleep(300 + Math.random() * 900)
      schedulers[victim].kill("SIGKILL")
      await exited(schedulers[victim])
      kills++
      running[victim] = spawnReadyScheduler(db.url, schedulerEnv)
      schedulers[victim] = running[victim].child
    }

    // Then let the two finish what is left (lease expiries included).
    const done = () =>
      runtime.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM jobs`
          return n === 0
        })
      )
    while (!(await done())) {
      if (Date.now() - start > 100_000) break
      await sleep(250)
    }
    for (const s of schedulers) s.kill("SIGTERM")
    await Promise.all(schedulers.map(exited))

    const { duplicates, repeatedCalls, ledger, posts } = await runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // Twice under two handles: two records of one post, account and text.
        const duplicates = yield* sql<{ content: string; n: number }>`
        SELECT post_id, account_id, content, count(*)::int AS n FROM sandbox_ledger GROUP BY 1, 2, 3 HAVING count(*) > 1`
        // Twice under one handle: the sandbox keeps one record per id (as Bluesky would) but counts the calls.
        const repeatedCalls = yield* sql<{ external_id: string; content: string; publishes: number }>`
        SELECT external_id, content, publishes FROM sandbox_ledger WHERE publishes <> 1`
        const ledger = yield* sql<{ external_id: string; post_id: string; account_id: string; content: string }>`
        SELECT external_id, post_id, account_id, content FROM sandbox_ledger`
        const repo = yield* PostRepo
        const workspaceId = (yield* sql<{ workspace_id: string }>`SELECT workspace_id FROM posts LIMIT 1`)[0]
          .workspace_id
        const posts: Array<Post> = []
        for (const id of postIds)
          posts.push((yield* repo.findById(workspaceId, id)).pipe((o) => (o._tag === "Some" ? o.value : null))!)
        return { duplicates, repeatedCalls, ledger, posts }
      })
    )
    await runtime.dispose()
    const retried = posts.flatMap((p) => p.targets).filter((t) => t.attempts > 1).length
    console.info(
      `crash test: ${kills} SIGKILLs, ${ledger.length} network posts, ${retried} targets taken over after a kill, ${((Date.now() - start) / 1000).toFixed(1)} s`
    )

    assert.isAtLeast(kills, 5)
    assert.isAtLeast(retried, 1, "some kills landed mid-job")
    assert.deepStrictEqual(duplicates, [], "nothing reached the network twice under two handles")
    assert.deepStrictEqual(repeatedCalls, [], "exactly one call reached the network per handle")
    assert.strictEqual(ledger.length, POSTS * ACCOUNTS * 4, "every root, reply and first comment reached the network")
    const byId = new Map(ledger.map((r) => [r.external_id, r]))
    for (const post of posts) {
      assert.strictEqual(
        post.status,
        "published",
        `${post.id} is ${post.status}: ${JSON.stringify(post.targets.map((t) => t.error))}`
      )
      for (const t of post.targets) {
        const n = post.content.split(" ")[0]
        assert.strictEqual(byId.get(t.externalId!)?.content, `${n} root`)
        assert.deepStrictEqual(
          t.thread.map((r) => byId.get(r.externalId)?.content),
          [`${n} r1`, `${n} r2`]
        )
        assert.strictEqual(t.firstComment?.status, "published")
        assert.strictEqual(byId.get(t.firstComment!.externalId!)?.content, `${n} comment`)
      }
    }
  }, 150_000)
}

await withTestServer("scheduler crash test (PostgreSQL, real processes)", () =>
  describe("scheduler crash test (PostgreSQL, real processes)", suite)
)
