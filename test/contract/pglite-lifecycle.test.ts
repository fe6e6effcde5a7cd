import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import * as Pglite from "../../adapters/pglite/index.ts"
import { layer as storageLayer, migrate, migrations } from "../../adapters/postgres/index.ts"
import { PostCreator } from "../../application/ports/PostCreator.ts"
import { ApiKeyRepo } from "../../application/ports/ApiKeyRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { apiKey, post, workspace } from "./fixtures.ts"

const root = mkdtempSync(join(tmpdir(), "herald-pglite-life-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Storage on PGlite in `dataDir`, migrated; the scope of the effect that uses it opens and closes it. */
const embedded = (dataDir: string) =>
  storageLayer.pipe(Layer.provideMerge(Layer.effectDiscard(migrate)), Layer.provideMerge(Pglite.layer(dataDir)))

const timed = <A, E, R>(label: string, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const start = performance.now()
    const result = yield* effect
    console.log(`[pglite] ${label}: ${Math.round(performance.now() - start)} ms`)
    return result
  })

describe("PGlite embedded database", () => {
  const dataDir = join(root, "db")

  it.live(
    "holds under 50 concurrent transactions and concurrent reads, then keeps its data across close and reopen",
    () =>
      Effect.gen(function* () {
        const ws = workspace()
        yield* timed(
          "create a new data dir, migrate, 50 concurrent transactions, close",
          Effect.gen(function* () {
            const store = yield* Store
            const workspaces = yield* WorkspaceRepo
            const keys = yield* ApiKeyRepo
            const usage = yield* UsageCounter
            yield* workspaces.insert(ws)
            const transactions = Effect.forEach(
              Array.from({ length: 50 }, (_, i) => i),
              (i) =>
                store.transaction(
                  Effect.gen(function* () {
                    yield* keys.insert(apiKey(ws.id, { name: `key ${i}` }))
                    yield* usage.increment(ws.id, "2026-01")
                  })
                ),
              { concurrency: "unbounded", discard: true }
            )
            // Reads outside the transactions queue for the one connection and must not see half of one.
            const reads = Effect.forEach(Array.from({ length: 50 }), () => keys.listByWorkspace(ws.id), {
              concurrency: "unbounded"
            })
            const [, seen] = yield* timed(
              "50 concurrent transactions + 50 reads",
              Effect.all([transactions, reads], { concurrency: 2 })
            )
            for (const list of seen) assert.isAtMost(list.length, 50)
            assert.strictEqual((yield* keys.listByWorkspace(ws.id)).length, 50)
            assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 50)
          }).pipe(Effect.provide(embedded(dataDir)))
        )
        assert.isFalse(existsSync(`${dataDir}.lock`), "the lock is released on close")
        // PGlite's files are world-writable; the directory keeps other users out.
        assert.strictEqual(statSync(dataDir).mode & 0o777, 0o700)

        yield* timed(
          "reopen the existing data dir and read",
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            assert.deepStrictEqual(yield* (yield* WorkspaceRepo).findById(ws.id), Option.some(ws))
            assert.strictEqual((yield* (yield* ApiKeyRepo).listByWorkspace(ws.id)).length, 50)
            assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 50)
            // Migrations already applied are not applied again.
            assert.deepStrictEqual(yield* migrate, [])
            const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM effect_sql_migrations`
            assert.strictEqual(rows[0].n, Object.keys(migrations).length)
          }).pipe(Effect.provide(embedded(dataDir)))
        )
      }),
    120_000
  )

  it.live(
    "an upgrade keeps stored data: migration 0004 turns each month's count into its shard 0",
    () =>
      Effect.gen(function* () {
        const dir = join(root, "upgrade")
        const ws = workspace({ plan: "pro", claimed: true })
        const before = Object.fromEntries(Object.entries(migrations).filter(([id]) => id < "0004"))
        // A data dir as the release before 0004 left it, with a month already counted.
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* Migrator.make({})({ loader: Migrator.fromRecord(before) })
          // That release's own columns: today's repository writes columns added since.
          yield* sql`INSERT INTO workspaces (id, name, owner_email, plan, claimed, locale, created_at, expires_at)
            VALUES (${ws.id}, ${ws.name}, ${ws.ownerEmail}, ${ws.plan}, ${ws.claimed}, ${ws.locale}, ${new Date(ws.createdAt)}, ${null})`
          yield* sql`INSERT INTO usage_counters (workspace_id, month, count) VALUES (${ws.id}, '2026-01', 7)`
        }).pipe(Effect.provide(storageLayer.pipe(Layer.provideMerge(Pglite.layer(dir)))))
        // The current release opens it: the count is still there and goes on from 7.
        yield* Effect.gen(function* () {
          const usage = yield* UsageCounter
          assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 7)
          const p = post(ws.id)
          // A capped plan's create reads the total on from the old count; an uncapped one adds to it.
          assert.deepStrictEqual(
            yield* (yield* PostCreator).create({ post: p, jobs: [], usage: { month: "2026-01", limit: 30 } }),
            { _tag: "Created", used: 8 }
          )
          assert.deepStrictEqual(
            yield* (yield* PostCreator).create({
              post: post(ws.id),
              jobs: [],
              usage: { month: "2026-01", limit: null }
            }),
            { _tag: "Created", used: null }
          )
          assert.strictEqual(yield* usage.increment(ws.id, "2026-01"), 10)
          assert.strictEqual(yield* usage.current(ws.id, "2026-01"), 10)
        }).pipe(Effect.provide(embedded(dir)))
      }),
    120_000
  )

  it.live(
    "a new data dir starts as a copy of the template, which the first new data dir makes",
    () =>
      Effect.gen(function* () {
        const templateDir = join(root, "template")
        const first = join(root, "from-template-1")
        const second = join(root, "from-template-2")
        const ws = workspace()
        yield* Effect.gen(function* () {
          yield* (yield* WorkspaceRepo).insert(ws)
        }).pipe(
          Effect.provide(
            storageLayer.pipe(
              Layer.provideMerge(Layer.effectDiscard(migrate)),
              Layer.provideMerge(Pglite.layer(first, { templateDir }))
            )
          )
        )
        assert.isTrue(existsSync(join(templateDir, "PG_VERSION")), "the template was made")
        // The second data dir is a copy of the untouched template: migrated from scratch, without the first's rows.
        const seen = yield* Effect.gen(function* () {
          assert.strictEqual((yield* migrate).length, Object.keys(migrations).length)
          return yield* (yield* WorkspaceRepo).findById(ws.id)
        }).pipe(Effect.provide(storageLayer.pipe(Layer.provideMerge(Pglite.layer(second, { templateDir })))))
        assert.isTrue(Option.isNone(seen))
        assert.isFalse(existsSync(`${second}.copying`))
      }),
    120_000
  )

  it.live(
    "a template that cannot be made leaves initdb to PGlite",
    () =>
      Effect.gen(function* () {
        const dir = join(root, "no-template")
        // Nothing can be made below a regular file.
        const templateDir = join(root, "a-file", "template")
        writeFileSync(join(root, "a-file"), "")
        const migrated = yield* migrate.pipe(Effect.provide(Pglite.layer(dir, { templateDir })))
        assert.strictEqual(migrated.length, Object.keys(migrations).length)
      }),
    120_000
  )

  it.live(
    "takes over a lock left by a process that died (a crash, SIGKILL)",
    () =>
      Effect.gen(function* () {
        const dir = join(root, "crashed")
        const dead = spawnSync(process.execPath, ["-e", "0"]).pid!
        writeFileSync(`${dir}.lock`, String(dead))
        const migrated = yield* migrate.pipe(Effect.provide(Pglite.layer(dir)))
        assert.strictEqual(migrated.length, Object.keys(migrations).length)
        assert.isFalse(existsSync(`${dir}.lock`), "the lock is released on close")
      }),
    120_000
  )

  it.live(
    "refuses a second open of a data dir that is in use, and removes its socket on close",
    () =>
      Effect.gen(function* () {
        const dir = join(root, "locked")
        const socket = yield* Effect.gen(function* () {
          const path = (yield* PgClient.PgClient).config.path
          assert.isTrue(path !== undefined && existsSync(path), "served on a unix socket")
          const second = yield* Layer.build(Pglite.layer(dir)).pipe(Effect.scoped, Effect.flip)
          assert.strictEqual(second._tag, "PgliteError")
          assert.include(second.message, "is open in process")
          return path!
        }).pipe(Effect.provide(Pglite.layer(dir)))
        assert.isFalse(existsSync(socket))
        assert.isFalse(existsSync(`${dir}.lock`))
      }),
    120_000
  )
})
