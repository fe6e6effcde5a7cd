import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as PostgresPostCreator from "../../adapters/postgres/PostgresPostCreator.ts"
import type { Job } from "../../application/ports/JobQueue.ts"
import { PostCreator } from "../../application/ports/PostCreator.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import type { Post } from "../../domain/post.ts"
import { freshSqlStorage } from "../support/storage.ts"
import { layerOptions, newId, post, seedWorkspace, type SuiteOptions, T0 } from "./fixtures.ts"

const jobsFor = (p: Post): Array<Job> =>
  p.targets.map((t) => ({
    id: newId("job"),
    kind: "publish",
    workspaceId: p.workspaceId,
    postId: p.id,
    accountId: t.accountId,
    runAt: T0 + 60_000,
    attempts: 0
  }))

/** Transactions that wrote the workspace's posts: posts written by one statement share its xmin. */
const writingTransactions = (workspaceId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ n: number }>`SELECT count(DISTINCT xmin::text)::int AS n FROM posts WHERE workspace_id = ${workspaceId}`
  ).pipe(
    Effect.map((rows) => rows[0]!.n),
    Effect.orDie
  )

/**
 * The SQL PostCreator's batching (PostgresPostCreator.ts), on one writer so creates queue behind it:
 * creates that wait go in together, and a post that cannot be written fails without the others.
 */
export const sqlPostCreatorSuite = <E>(
  name: string,
  backend: Layer.Layer<SqlClient.SqlClient, E>,
  options?: SuiteOptions
) =>
  layer(
    Layer.mergeAll(Layer.effect(PostCreator)(PostgresPostCreator.make({ writers: 1 })), freshSqlStorage(backend)).pipe(
      Layer.provideMerge(backend)
    ),
    layerOptions(options)
  )(`${name}: SQL PostCreator batches`, (it) => {
    it.effect("creates waiting for the writer are written together, each whole", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const entries = Array.from({ length: 20 }, () => {
          const p = post(ws.id)
          return { post: p, jobs: jobsFor(p), usage: { month: "2026-08", limit: null } }
        })
        const outcomes = yield* Effect.forEach(entries, (e) => creator.create(e), { concurrency: "unbounded" })
        assert.isTrue(outcomes.every((o) => o._tag === "Created"))
        for (const e of entries)
          assert.deepStrictEqual(
            yield* Effect.flatMap(PostRepo, (r) => r.findById(ws.id, e.post.id)),
            Option.some(e.post)
          )
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-08"), 20)
        assert.isBelow(yield* writingTransactions(ws.id), 20)
      })
    )

    it.effect("a post that cannot be written fails alone; the posts batched with it are stored and counted", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const good = Array.from({ length: 9 }, () => post(ws.id))
        const orphan = post("ws_MISSING") // no such workspace: its foreign key fails
        const all = [...good.slice(0, 4), orphan, ...good.slice(4)]
        const exits = yield* Effect.forEach(
          all,
          (p) => Effect.exit(creator.create({ post: p, jobs: jobsFor(p), usage: { month: "2026-09", limit: null } })),
          {
            concurrency: "unbounded"
          }
        )
        assert.isTrue(Exit.isFailure(exits[4]!))
        assert.isTrue(exits.filter((_, i) => i !== 4).every(Exit.isSuccess))
        const repo = yield* PostRepo
        for (const p of good) assert.isTrue(Option.isSome(yield* repo.findById(ws.id, p.id)))
        assert.isTrue(Option.isNone(yield* repo.findById("ws_MISSING", orphan.id)))
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-09"), 9)
      })
    )

    it.effect("a key twice among waiting creates: one is stored, the other names it as the holder", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const posts = Array.from({ length: 6 }, () => post(ws.id))
        const claimOf = (p: Post, key: string) => ({
          scope: `${ws.id}:key_A`,
          key,
          requestHash: "h",
          postId: p.id,
          createdAt: T0,
          expiresAt: T0 + 86_400_000
        })
        // Keys: a, b, a, c, b, d: the second a and b wait behind the first.
        const keys = ["a", "b", "a", "c", "b", "d"]
        const outcomes = yield* Effect.forEach(
          posts,
          (p, i) =>
            creator.create({
              post: p,
              jobs: jobsFor(p),
              usage: { month: "2026-10", limit: null },
              claim: claimOf(p, keys[i]!)
            }),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(
          outcomes.map((o) => o._tag),
          ["Created", "Created", "KeyHeld", "Created", "KeyHeld", "Created"]
        )
        assert.deepStrictEqual(outcomes[2], { _tag: "KeyHeld", holder: claimOf(posts[0]!, "a") })
        assert.deepStrictEqual(outcomes[4], { _tag: "KeyHeld", holder: claimOf(posts[1]!, "b") })
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-10"), 4)
        assert.isBelow(yield* writingTransactions(ws.id), 4)
      })
    )
  })
