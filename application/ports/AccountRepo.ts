import { Context, type Effect, type Option } from "effect"
import type { Account } from "../../domain/account.ts"

export interface AccountRepoShape {
  /** Inserts, or on reconnection (same workspace, platform and externalId) replaces, an account. */
  readonly upsert: (account: Account) => Effect.Effect<Account>
  readonly listByWorkspace: (workspaceId: string) => Effect.Effect<ReadonlyArray<Account>>
  readonly findById: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Account>>
}

export class AccountRepo extends Context.Service<AccountRepo, AccountRepoShape>()("herald/AccountRepo") {}
