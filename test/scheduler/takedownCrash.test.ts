import type { ChildProcess } from "node:child_process"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { publishersOf } from "../../application/ports/Network.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Publishers } from "../../application/ports/Publishers.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { takeDownPost } from "../../application/usecases/posts/takedown.ts"
import { itemsOf } from "../../application/usecases/publishing/takedown.ts"
import type { Post } from "../../domain/post.ts"
import { withTestServer } from "../support/postgres.ts"
import { exited, freshDatabase, runtimeFor, seedWorkspace, spawnReadyScheduler } from "./pg.ts"

const POSTS = 40
const ACCOUNTS = 2
const KILLS = 4

const schedulerEnv = {
  HERALD_LEASE_MS: "1500",
  HERALD_POLL_MS: "50",
  HERALD_WORKER_CONCURRENCY: "8",
  HERALD_WORKER_BATCH: "8",
  HERALD_FIRST_COMMENT_DELAY_MS: "300",
  // Each network call takes 400 ms, half before the sandbox acts and half after: kills land mid-call.
  HERALD_SANDBOX_LATENCY_MS: "400",
  HERALD_SWEEPERS: "false",
  DATABASE_POOL_SIZE: "4",
  HERALD_SHUTDOWN_GRACE_MS: "2000",
  LOG_LEVEL: "Warning"
}

// The request side only asks whether the sandbox can remove posts; the schedulers do the removing.
const askingSide = publishersOf([
  {
    platform: "sandbox",
    prepare: () => Effect.die("not here"),
    publish: () => Effect.die("not here"),
    unpublish: () => Effect.die("not here")
  }
])

const suite = () => {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined
  afterAll(async () => {
    await db?.drop()
  })

  it("SIGKILLed during take-down calls: every target ends deleted, never called deleted before the network removed it", async () => {
    db = await freshDatabase("herald_takedown")
    const runtime = runtimeFor(db.url, 5)
    const start = Date.now()
    const { postIds, workspaceId, agent } = await runtime.runPromise(
      Effect.gen(function* () {
        const { agent, accountIds, workspaceId } = yield* seedWorkspace(ACCOUNTS)
        const ids: Array<string> = []
        for (let i = 0; i < POSTS; i++) {
          const created = yield* createPost(
            agent,
            { accountIds, content: `p${i} root`, thread: [`p${i} r1`], firstComment: `p${i} comment` },
            null
          )
          if (created.kind !== "created") throw new Error("not created")
          ids.push(created.body.post.id)
        }
        return { postIds: ids, workspaceId, agent }
      })
    )
    const read = () =>
      runtime.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [{ jobs }] = yield* sql<{ jobs: number }>`SELECT count(*)::int AS jobs FROM jobs`
          const ledger = yield* sql<{ external_id: string; removed_at: string | null; removes: number }>`
            SELECT external_id, removed_at, removes FROM sandbox_ledger`
          const repo = yield* PostRepo
          const posts: Array<Post> = []
          for (const id of postIds) {
            const found = yield* repo.findById(workspaceId, id)
            if (found._tag === "Some") posts.push(found.value)
          }
          return { jobs, ledger, posts }
        })
      )
    const running = [spawnReadyScheduler(db.url, schedulerEnv), spawnReadyScheduler(db.url, schedulerEnv)]
    const schedulers: Array<ChildProcess> = running.map((r) => r.child)
    // Publish everything first (roots, replies, first comments).
    let state = await read()
    while (
      !(state.jobs === 0 && state.posts.every((p) => p.targets.every((t) => t.firstComment?.status === "published")))
    ) {
      if (Date.now() - start > 60_000) throw new Error("publishing did not finish")
      await sleep(200)
      state = await read()
    }
    assert.strictEqual(state.ledger.length, POSTS * ACCOUNTS * 3)

    await runtime.runPromise(
      Effect.forEach(postIds, (id) => takeDownPost(agent, id), { discard: true }).pipe(
        Effect.provideService(Publishers, askingSide)
      )
    )
    // A target called deleted must have every item removed on the network, at every look.
    let falseDeleted = 0
    const look = async () => {
      state = await read()
      const removed = new Map(state.ledger.map((r) => [r.external_id, r.removed_at !== null]))
      for (const t of state.posts.flatMap((p) => p.targets))
        if (t.deletion?.status === "deleted" && itemsOf(t).some((i) => removed.get(i.externalId) !== true))
          falseDeleted++
    }
    let kills = 0
    while (kills < KILLS) {
      const victim = kills % 2
      await running[victim].ready
      await sleep(300 + Math.random() * 700)
      schedulers[victim].kill("SIGKILL")
      await exited(schedulers[victim])
      kills++
      await look()
      running[victim] = spawnReadyScheduler(db.url, schedulerEnv)
      schedulers[victim] = running[victim].child
    }
    await look()
    while (state.jobs > 0 && Date.now() - start < 110_000) {
      await sleep(250)
      await look()
    }
    for (const s of schedulers) s.kill("SIGTERM")
    await Promise.all(schedulers.map(exited))
    await look()
    await runtime.dispose()

    const targets = state.posts.flatMap((p) => p.targets)
    const repeats = state.ledger.filter((r) => r.removes > 1).length
    console.info(
      `take-down crash test: ${kills} SIGKILLs, ${state.ledger.length} network items, ${repeats} removes repeated after a kill (absorbed), ${((Date.now() - start) / 1000).toFixed(1)} s`
    )
    assert.strictEqual(falseDeleted, 0, "no target was deleted before the network removed its items")
    assert.deepStrictEqual(
      targets.filter((t) => t.deletion?.status !== "deleted").map((t) => [t.accountId, t.deletion]),
      [],
      "every target ends deleted"
    )
    assert.deepStrictEqual(
      state.ledger.filter((r) => r.removed_at === null).map((r) => r.external_id),
      [],
      "every root, reply and first comment was removed"
    )
  }, 150_000)
}

await withTestServer("take-down crash test (PostgreSQL, real processes)", () =>
  describe("take-down crash test (PostgreSQL, real processes)", suite)
)
