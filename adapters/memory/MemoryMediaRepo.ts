import { Effect, Layer, Option } from "effect"
import { MediaRepo, type MediaRepoShape } from "../../application/ports/MediaRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const media = () => state.tables.media
  return {
    insert: (m) => state.sync(() => void media().set(m.id, m)),
    findById: (workspaceId, id) =>
      state.sync(() => Option.filter(Option.fromNullishOr(media().get(id)), (m) => m.workspaceId === workspaceId)),
    findByIds: (workspaceId, ids) =>
      state.sync(
        () =>
          [...new Set(ids)]
            .map((id) => media().get(id))
            .filter((m) => m !== undefined && m.workspaceId === workspaceId) as never
      ),
    listByWorkspace: (workspaceId, limit) =>
      state.sync(() =>
        [...media().values()]
          .filter((m) => m.workspaceId === workspaceId)
          .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
          .slice(0, limit)
      ),
    countByWorkspace: (workspaceId) =>
      state.sync(() => [...media().values()].filter((m) => m.workspaceId === workspaceId).length),
    listExpired: (now, limit) =>
      state.sync(() => [...media().values()].filter((m) => m.expiresAt <= now).slice(0, limit)),
    delete: (id) => state.sync(() => void media().delete(id))
  } satisfies MediaRepoShape
})

export const layer = Layer.effect(MediaRepo)(make)
