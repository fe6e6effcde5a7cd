import { Context, type Effect, type Option } from "effect"

/** What the store keeps in clear about a grant, so that when it ends can be told without opening any token. */
export interface GrantLifetime {
  /** When the access token ends (epoch ms); null when it does not. */
  readonly expiresAt: number | null
  /** Whether a refresh token is held; null for credentials stored before this was kept (only opening them tells). */
  readonly refreshable: boolean | null
  /** When the refresh token ends, where the network says. */
  readonly refreshExpiresAt: number | null
}

/** An account's credentials as stored: sealed by the TokenVault, never in clear, and their lifetime in clear. */
export interface StoredCredentials extends GrantLifetime {
  readonly sealed: string
  /** Grows at every write; a renewal that started from an older version finds the newer one instead. */
  readonly version: number
}

export interface SealedUpdate {
  readonly sealed: string
  readonly expiresAt: number | null
  readonly refreshable?: boolean | undefined
  readonly refreshExpiresAt?: number | null | undefined
}

/** The record a store keeps for an update at `version`. */
export const storedFrom = (update: SealedUpdate, version: number): StoredCredentials => ({
  sealed: update.sealed,
  expiresAt: update.expiresAt,
  refreshable: update.refreshable ?? null,
  refreshExpiresAt: update.refreshExpiresAt ?? null,
  version
})

export interface CredentialStoreShape {
  /** Stores an account's credentials (a connection or a reconnection). */
  readonly put: (accountId: string, update: SealedUpdate) => Effect.Effect<void>
  readonly get: (accountId: string) => Effect.Effect<Option.Option<StoredCredentials>>
  /** The lifetimes of these accounts' grants, read without their sealed tokens; accounts without credentials are absent. */
  readonly lifetimes: (accountIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, GrantLifetime>>
  /**
   * Renews an account's credentials under its lock, so that two processes never both use one
   * rotating refresh token and the newest one is never lost: when the stored version is still
   * `seen`, runs `renew` on it and stores the result; when another process renewed meanwhile,
   * returns theirs without calling `renew`. `renew` runs while the lock is held (a network call).
   */
  readonly renew: <E, R>(
    accountId: string,
    seen: number,
    renew: (current: StoredCredentials) => Effect.Effect<SealedUpdate, E, R>
  ) => Effect.Effect<StoredCredentials, E, R>
  readonly delete: (accountId: string) => Effect.Effect<void>
}

export class CredentialStore extends Context.Service<CredentialStore, CredentialStoreShape>()(
  "herald/CredentialStore"
) {}
