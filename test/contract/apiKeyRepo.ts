import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { ApiKeyRepo } from "../../application/ports/ApiKeyRepo.ts"
import { KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { apiKey, layerOptions, seedWorkspace, sorted, type SuiteOptions, T0 } from "./fixtures.ts"

export const apiKeyRepoContract = (
  name: string,
  ports: Layer.Layer<ApiKeyRepo | WorkspaceRepo, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`ApiKeyRepo contract (${name})`, (it) => {
    it.effect("finds a key by the hash of its text", () =>
      Effect.gen(function* () {
        const repo = yield* ApiKeyRepo
        const ws = yield* seedWorkspace()
        const key = apiKey(ws.id, { requireApproval: true })
        yield* repo.insert(key)
        assert.deepStrictEqual(yield* repo.findByHash(key.hash), Option.some(key))
        assert.isTrue(Option.isNone(yield* repo.findByHash("hash-unknown")))
      })
    )

    it.effect("records a use at most once per hour", () =>
      Effect.gen(function* () {
        const repo = yield* ApiKeyRepo
        const ws = yield* seedWorkspace()
        const key = apiKey(ws.id)
        yield* repo.insert(key)
        const lastUsed = Effect.map(repo.findByHash(key.hash), (k) => Option.getOrThrow(k).lastUsedAt)
        assert.strictEqual(yield* lastUsed, null)
        yield* repo.recordUse(key.id, T0 + 1000)
        assert.strictEqual(yield* lastUsed, T0 + 1000)
        yield* repo.recordUse(key.id, T0 + 1000 + KEY_USE_RESOLUTION_MS - 1)
        assert.strictEqual(yield* lastUsed, T0 + 1000)
        yield* repo.recordUse(key.id, T0 + 1000 + KEY_USE_RESOLUTION_MS)
        assert.strictEqual(yield* lastUsed, T0 + 1000 + KEY_USE_RESOLUTION_MS)
      })
    )

    it.effect("lists the keys of one workspace only", () =>
      Effect.gen(function* () {
        const repo = yield* ApiKeyRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const mine = [apiKey(ws.id), apiKey(ws.id, { name: "second" })]
        for (const key of [...mine, apiKey(other.id)]) yield* repo.insert(key)
        const listed = yield* repo.listByWorkspace(ws.id)
        assert.deepStrictEqual(sorted(listed.map((k) => k.id)), sorted(mine.map((k) => k.id)))
        assert.deepStrictEqual(
          listed.find((k) => k.id === mine[1].id),
          mine[1]
        )
      })
    )

    it.effect("revokes a live key of the workspace once; the revoked key is still found", () =>
      Effect.gen(function* () {
        const repo = yield* ApiKeyRepo
        const ws = yield* seedWorkspace()
        const other = yield* seedWorkspace()
        const key = apiKey(ws.id)
        yield* repo.insert(key)
        assert.isFalse(yield* repo.revoke(other.id, key.id, T0 + 5))
        assert.isFalse(yield* repo.revoke(ws.id, "key_missing", T0 + 5))
        assert.deepStrictEqual(yield* repo.findByHash(key.hash), Option.some(key))
        assert.isTrue(yield* repo.revoke(ws.id, key.id, T0 + 10))
        assert.isFalse(yield* repo.revoke(ws.id, key.id, T0 + 20))
        assert.deepStrictEqual(yield* repo.findByHash(key.hash), Option.some({ ...key, revokedAt: T0 + 10 }))
      })
    )
  })
