import { Effect, Layer, Option } from "effect"
import { PostRepo, type PostRepoShape } from "../../application/ports/PostRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const posts = () => state.tables.posts
  return {
    insert: (post) => state.sync(() => void posts().set(post.id, post)),
    findById: (workspaceId, id) =>
      state.sync(() => Option.filter(Option.fromNullishOr(posts().get(id)), (p) => p.workspaceId === workspaceId)),
    list: (workspaceId, query) =>
      state.sync(() =>
        [...posts().values()]
          .filter((p) => p.workspaceId === workspaceId && p.deletedAt === null)
          .filter((p) => query.status === undefined || p.status === query.status)
          .filter((p) => query.after === undefined || p.id < query.after)
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(0, query.limit)
      ),
    update: (post) => state.sync(() => void posts().set(post.id, post)),
    findMany: (keys) =>
      state.sync(() =>
        keys
          .flatMap(({ workspaceId, id }) => {
            const p = posts().get(id)
            return p !== undefined && p.workspaceId === workspaceId ? [p] : []
          })
          .filter((p, i, all) => all.indexOf(p) === i)
      ),
    updateMany: (list) =>
      state.sync(() =>
        list.forEach((post) => {
          if (posts().get(post.id)?.workspaceId === post.workspaceId) posts().set(post.id, post)
        })
      )
  } satisfies PostRepoShape
})

export const layer = Layer.effect(PostRepo)(make)
