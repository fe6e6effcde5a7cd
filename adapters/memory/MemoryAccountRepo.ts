import { Effect, Layer, Option } from "effect"
import { AccountRepo, type AccountRepoShape } from "../../application/ports/AccountRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const accounts = () => state.tables.accounts
  return {
    upsert: (account) =>
      state.sync(() => {
        const existing = [...accounts().values()].find(
          (a) =>
            a.workspaceId === account.workspaceId &&
            a.platform === account.platform &&
            a.externalId === account.externalId
        )
        const stored = existing ? { ...account, id: existing.id } : account
        accounts().set(stored.id, stored)
        return stored
      }),
    listByWorkspace: (workspaceId) =>
      state.sync(() =>
        [...accounts().values()]
          .filter((a) => a.workspaceId === workspaceId)
          .sort((a, b) => a.connectedAt - b.connectedAt || a.id.localeCompare(b.id))
      ),
    findById: (workspaceId, id) =>
      state.sync(() => Option.filter(Option.fromNullishOr(accounts().get(id)), (a) => a.workspaceId === workspaceId)),
    setStatus: (workspaceId, id, status, from) =>
      state.sync(() => {
        const found = accounts().get(id)
        if (found === undefined || found.workspaceId !== workspaceId || (from !== undefined && found.status !== from))
          return false
        accounts().set(id, { ...found, status })
        return true
      }),
    delete: (workspaceId, id) =>
      state.sync(() => {
        const found = accounts().get(id)
        if (found === undefined || found.workspaceId !== workspaceId) return false
        accounts().delete(id)
        state.tables.credentials.delete(id)
        return true
      })
  } satisfies AccountRepoShape
})

export const layer = Layer.effect(AccountRepo)(make)
