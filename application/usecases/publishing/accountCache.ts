import { Cache, Context, Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import { AccountRepo } from "../../ports/AccountRepo.ts"

export interface AccountCacheShape {
  readonly find: (workspaceId: string, accountId: string) => Effect.Effect<Option.Option<Account>>
}

/**
 * A worker's short memory of accounts: a busy queue publishes many targets of one account in a row,
 * and a second-old read of it is as good as a fresh one (a reconnection shows within `ttlMs`).
 */
export class AccountCache extends Context.Service<AccountCache, AccountCacheShape>()(
  "herald/publishing/AccountCache"
) {}

/** Effect's Cache (one lookup per account at a time, entries expire after `ttlMs` on the Clock). */
export const makeAccountCache = (ttlMs: number, capacity = 10_000) =>
  Effect.gen(function* () {
    const repo = yield* AccountRepo
    const cache = yield* Cache.make({
      capacity,
      timeToLive: ttlMs,
      lookup: (key: string) => {
        const [workspaceId, accountId] = key.split(" ")
        return repo.findById(workspaceId!, accountId!)
      }
    })
    // Ids never hold a space: one string key names the pair.
    return {
      find: (workspaceId, accountId) => Cache.get(cache, `${workspaceId} ${accountId}`)
    } satisfies AccountCacheShape
  })

/** The worker's cache when there is one, else a fresh read. */
export const findAccount = (workspaceId: string, accountId: string) =>
  Effect.flatMap(Effect.serviceOption(AccountCache), (cache) =>
    Option.isSome(cache)
      ? cache.value.find(workspaceId, accountId)
      : Effect.flatMap(AccountRepo, (repo) => repo.findById(workspaceId, accountId))
  )
