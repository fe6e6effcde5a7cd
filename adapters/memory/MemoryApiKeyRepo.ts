import { Effect, Layer, Option } from "effect"
import { ApiKeyRepo, type ApiKeyRepoShape } from "../../application/ports/ApiKeyRepo.ts"
import { KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const keys = () => state.tables.apiKeys
  return {
    insert: (key) => state.sync(() => void keys().set(key.id, key)),
    findByHash: (hash) => state.sync(() => Option.fromNullishOr([...keys().values()].find((k) => k.hash === hash))),
    listByWorkspace: (workspaceId) =>
      state.sync(() => [...keys().values()].filter((k) => k.workspaceId === workspaceId)),
    recordUse: (id, at) =>
      state.sync(() => {
        const key = keys().get(id)
        if (key && (key.lastUsedAt === null || key.lastUsedAt <= at - KEY_USE_RESOLUTION_MS))
          keys().set(id, { ...key, lastUsedAt: at })
      }),
    revoke: (workspaceId, id, now) =>
      state.sync(() => {
        const key = keys().get(id)
        if (!key || key.workspaceId !== workspaceId || key.revokedAt !== null) return false
        keys().set(id, { ...key, revokedAt: now })
        return true
      })
  } satisfies ApiKeyRepoShape
})

export const layer = Layer.effect(ApiKeyRepo)(make)
