import { Effect, Layer, Option, Semaphore } from "effect"
import { CredentialStore, type CredentialStoreShape, storedFrom } from "../../application/ports/CredentialStore.ts"
import { MemoryState } from "./MemoryState.ts"

/** Credentials in memory; renewals of one account take turns on its own lock. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const table = () => state.tables.credentials
  const locks = new Map<string, Semaphore.Semaphore>()
  const lockOf = (accountId: string) => {
    let lock = locks.get(accountId)
    if (lock === undefined) locks.set(accountId, (lock = Semaphore.makeUnsafe(1)))
    return lock
  }
  return {
    put: (accountId, update) =>
      Effect.sync(() => void table().set(accountId, storedFrom(update, (table().get(accountId)?.version ?? 0) + 1))),
    get: (accountId) => Effect.sync(() => Option.fromNullishOr(table().get(accountId))),
    lifetimes: (accountIds) =>
      Effect.sync(
        () =>
          new Map(
            accountIds.flatMap((id) => {
              const stored = table().get(id)
              return stored === undefined
                ? []
                : [
                    [
                      id,
                      {
                        expiresAt: stored.expiresAt,
                        refreshable: stored.refreshable,
                        refreshExpiresAt: stored.refreshExpiresAt
                      }
                    ] as const
                  ]
            })
          )
      ),
    renew: (accountId, seen, renew) =>
      lockOf(accountId).withPermit(
        Effect.gen(function* () {
          const current = table().get(accountId)
          if (current === undefined) return yield* Effect.die(new Error(`no credentials for ${accountId}`))
          if (current.version !== seen) return current
          const next = storedFrom(yield* renew(current), current.version + 1)
          // The account may have been disconnected while the network answered.
          if (table().has(accountId)) table().set(accountId, next)
          return next
        })
      ),
    delete: (accountId) => Effect.sync(() => void table().delete(accountId))
  } satisfies CredentialStoreShape
})

export const layer = Layer.effect(CredentialStore)(make)
