import { Effect, Layer, Option } from "effect"
import { EmailTaken, WorkspaceRepo, type WorkspaceRepoShape } from "../../application/ports/WorkspaceRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const t = () => state.tables
  return {
    insert: (ws) =>
      state.operation(
        Effect.suspend(() => {
          if ([...t().workspaces.values()].some((w) => w.ownerEmail === ws.ownerEmail))
            return Effect.fail(new EmailTaken())
          t().workspaces.set(ws.id, ws)
          return Effect.void
        })
      ),
    findById: (id) => state.sync(() => Option.fromNullishOr(t().workspaces.get(id))),
    findByEmail: (email) =>
      state.sync(() => Option.fromNullishOr([...t().workspaces.values()].find((w) => w.ownerEmail === email))),
    // Memory transactions already run one at a time (MemoryStore).
    lock: () => Effect.void,
    update: (ws) => state.sync(() => void t().workspaces.set(ws.id, ws)),
    listExpiredUnclaimed: (now, limit) =>
      state.sync(() =>
        [...t().workspaces.values()]
          .filter((w) => !w.claimed && w.expiresAt !== null && w.expiresAt <= now)
          .slice(0, limit)
      ),
    delete: (id) =>
      state.sync(() => {
        const tables = t()
        tables.workspaces.delete(id)
        for (const [k, v] of tables.apiKeys) if (v.workspaceId === id) tables.apiKeys.delete(k)
        for (const [k, v] of tables.tokens) if (v.workspaceId === id) tables.tokens.delete(k)
        for (const [k, v] of tables.accounts) if (v.workspaceId === id) tables.accounts.delete(k)
        for (const [k, v] of tables.media) if (v.workspaceId === id) tables.media.delete(k)
        for (const [k, v] of tables.posts) if (v.workspaceId === id) tables.posts.delete(k)
        for (const [k, v] of tables.jobs) if (v.workspaceId === id) tables.jobs.delete(k)
        for (const [k, v] of tables.events) if (v.workspaceId === id) tables.events.delete(k)
        for (const [k, v] of tables.webhooks) if (v.workspaceId === id) tables.webhooks.delete(k)
        for (const [k, v] of tables.deliveries) if (v.workspaceId === id) tables.deliveries.delete(k)
      }),
    countCreatedBetween: (from, to) =>
      state.sync(() => [...t().workspaces.values()].filter((w) => w.createdAt >= from && w.createdAt < to).length)
  } satisfies WorkspaceRepoShape
})

export const layer = Layer.effect(WorkspaceRepo)(make)
