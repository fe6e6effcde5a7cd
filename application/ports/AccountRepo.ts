import { Context, type Effect, type Option } from "effect"
import type { Account, AccountStatus } from "../../domain/account.ts"

export interface AccountRepoShape {
  /** Inserts, or on reconnection (same workspace, platform and externalId) replaces, an account. */
  readonly upsert: (account: Account) => Effect.Effect<Account>
  readonly listByWorkspace: (workspaceId: string) => Effect.Effect<ReadonlyArray<Account>>
  readonly findById: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Account>>
  /**
   * Sets an account's status (needs_reconnection when its grant is gone); false when there is no such
   * account, or, with `from`, when its status was not `from` (so of racing callers one changes it).
   */
  readonly setStatus: (
    workspaceId: string,
    id: string,
    status: AccountStatus,
    from?: AccountStatus
  ) => Effect.Effect<boolean>
  /** Removes an account (a disconnection); its credentials go with it. False when there was none. */
  readonly delete: (workspaceId: string, id: string) => Effect.Effect<boolean>
}

export class AccountRepo extends Context.Service<AccountRepo, AccountRepoShape>()("herald/AccountRepo") {}
