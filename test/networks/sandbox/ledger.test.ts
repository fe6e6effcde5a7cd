import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import {
  makeMemoryLedger,
  SandboxLedger,
  type SandboxRecord
} from "../../../adapters/networks/sandbox/SandboxPublisher.ts"
import * as SqlSandboxLedger from "../../../adapters/networks/sandbox/SqlSandboxLedger.ts"
import { testDatabase, withTestServer } from "../../support/postgres.ts"

/*
 * The sandbox network keeps one record per id (a repeated call with a prepared id posts nothing new,
 * as on Bluesky) and counts every call that named the id: "never posted twice" is then shown as one
 * call per handle, not only as one record.
 */

const record = (externalId: string, content = "hello"): SandboxRecord => ({
  externalId,
  accountId: "acc_1",
  postId: "post_1",
  content,
  replyTo: null,
  mediaIds: [],
  poll: null,
  cover: null,
  tiktokAiGenerated: false,
  at: 1
})

const ledgerSuite = (
  name: string,
  provide: <A, E>(effect: Effect.Effect<A, E, SandboxLedger>) => Effect.Effect<A, E | unknown>
) =>
  describe(`the sandbox ledger (${name})`, () => {
    it.effect("counts every call per id; only the first one stores", () =>
      provide(
        Effect.gen(function* () {
          const ledger = yield* SandboxLedger
          const id = `sbx_${name}_${Date.now()}`
          assert.strictEqual(yield* ledger.publishes(id), 0)
          assert.isTrue(yield* ledger.append(record(id)))
          assert.strictEqual(yield* ledger.publishes(id), 1)
          assert.isFalse(yield* ledger.append(record(id, "again")))
          assert.strictEqual(yield* ledger.publishes(id), 2)
          // Calls arriving together (one statement on PostgreSQL) count alike.
          const other = `${id}_b`
          const stored = yield* Effect.all([ledger.append(record(other)), ledger.append(record(other))], {
            concurrency: "unbounded"
          })
          assert.deepStrictEqual([...stored].sort(), [false, true])
          assert.strictEqual(yield* ledger.publishes(other), 2)
          const found = yield* ledger.find(id)
          assert.strictEqual(found._tag === "Some" ? found.value.content : null, "hello", "the first record stays")
        })
      )
    )
  })

ledgerSuite("memory", (effect) => Effect.provideService(effect, SandboxLedger, makeMemoryLedger()))

await withTestServer("sandbox ledger on PostgreSQL", () => {
  const ledger = SqlSandboxLedger.layer.pipe(Layer.provide(testDatabase()))
  ledgerSuite("postgres", (effect) => Effect.provide(effect, ledger))
})
