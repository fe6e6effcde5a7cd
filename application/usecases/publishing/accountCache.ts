import { Clock, Context, Effect, Option } from "effect"
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

export const makeAccountCache = (ttlMs: number, maxEntries = 10_000) =>
  Effect.map(AccountRepo, (repo): AccountCacheShape => {
    const entries = new Map<string, { readonly account: Option.Option<Account>; readonly until: number }>()
    return {
      find: (workspaceId, accountId) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const key = `${workspaceId}/${accountId}`
          const hit = entries.get(key)
          if (hit !== undefined && hit.until > now) return hit.account
          const account = yield* repo.findById(workspaceId, accountId)
          if (entries.size >= maxEntries) entries.clear()
          entries.set(key, { account, until: now + ttlMs })
          return account
        })
    }
  })

/** The worker's cache when there is one, else a fresh read. */
export const findAccount = (workspaceId: string, accountId: string) =>
  Effect.flatMap(Effect.serviceOption(AccountCache), (cache) =>
    Option.isSome(cache)
      ? cache.value.find(workspaceId, accountId)
      : Effect.flatMap(AccountRepo, (repo) => repo.findById(workspaceId, accountId))
  )
