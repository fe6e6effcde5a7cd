import { Effect, Layer, Option } from "effect"
import { TokenRepo, type TokenRepoShape } from "../../application/ports/TokenRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const tokens = () => state.tables.tokens
  const live = (hash: string, kind: string, now: number) => {
    const token = tokens().get(hash)
    return token && token.kind === kind && token.expiresAt > now ? token : undefined
  }
  return {
    insert: (token) => state.sync(() => void tokens().set(token.hash, token)),
    consume: (hash, kind, now) =>
      state.sync(() => {
        const token = live(hash, kind, now)
        if (token) tokens().delete(hash)
        return Option.fromNullishOr(token)
      }),
    find: (hash, kind, now) => state.sync(() => Option.fromNullishOr(live(hash, kind, now))),
    delete: (hash) => state.sync(() => void tokens().delete(hash)),
    takeDue: (kind, now, limit) =>
      state.sync(() => {
        const due = [...tokens().values()].filter((t) => t.kind === kind && t.expiresAt <= now).slice(0, limit)
        for (const t of due) tokens().delete(t.hash)
        return due
      }),
    listFor: (workspaceId, email, kind, now) =>
      state.sync(() =>
        [...tokens().values()]
          .filter((t) => t.workspaceId === workspaceId && t.email === email && t.kind === kind && t.expiresAt > now)
          .sort((a, b) => a.createdAt - b.createdAt || (a.hash < b.hash ? -1 : 1))
      ),
    deleteKind: (workspaceId, kind) =>
      state.sync(() => {
        for (const [k, v] of tokens()) if (v.workspaceId === workspaceId && v.kind === kind) tokens().delete(k)
      })
  } satisfies TokenRepoShape
})

export const layer = Layer.effect(TokenRepo)(make)
