import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type IdempotencyRecord, IdempotencyStore } from "../../application/ports/IdempotencyStore.ts"
import { DAY_MS } from "../../domain/time.ts"
import { layerOptions, newId, type SuiteOptions, T0 } from "./fixtures.ts"

const record = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  scope: `${newId("ws")}:${newId("key")}`,
  key: newId("idem"),
  requestHash: "hash-1",
  postId: newId("post"),
  createdAt: T0,
  expiresAt: T0 + DAY_MS,
  ...over
})

export const idempotencyStoreContract = (
  name: string,
  ports: Layer.Layer<IdempotencyStore, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`IdempotencyStore contract (${name})`, (it) => {
    it.effect("a new claim answers None; a later claim gets the live record that holds the key", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const first = record()
        assert.isTrue(Option.isNone(yield* store.claim(first, T0)))
        const second = { ...first, requestHash: "hash-2", postId: newId("post"), createdAt: T0 + 1000 }
        assert.deepStrictEqual(yield* store.claim(second, T0 + 1000), Option.some(first))
        assert.deepStrictEqual(yield* store.claim(second, first.expiresAt - 1), Option.some(first))
      })
    )

    it.effect("keys are scoped: another caller or another key claims anew", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const first = record()
        yield* store.claim(first, T0)
        assert.isTrue(Option.isNone(yield* store.claim(record({ key: first.key }), T0)))
        assert.isTrue(Option.isNone(yield* store.claim(record({ scope: first.scope }), T0)))
      })
    )

    it.effect("an expired record counts as absent and is replaced", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const first = record()
        yield* store.claim(first, T0)
        const later = {
          ...first,
          postId: newId("post"),
          createdAt: first.expiresAt,
          expiresAt: first.expiresAt + DAY_MS
        }
        assert.isTrue(Option.isNone(yield* store.claim(later, first.expiresAt)))
        assert.deepStrictEqual(
          yield* store.claim(record({ scope: first.scope, key: first.key }), first.expiresAt + 1),
          Option.some(later)
        )
      })
    )

    it.effect("of 50 concurrent claims of one key exactly one is new, and all others see its record", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const base = record()
        const claims = Array.from({ length: 50 }, () => ({ ...base, postId: newId("post") }))
        const results = yield* Effect.forEach(claims, (r) => store.claim(r, T0), { concurrency: "unbounded" })
        const winners = claims.filter((_, i) => Option.isNone(results[i]))
        assert.strictEqual(winners.length, 1)
        for (const result of results) if (Option.isSome(result)) assert.deepStrictEqual(result.value, winners[0])
      })
    )
  })
