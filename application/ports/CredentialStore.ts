import { Context, type Effect, type Option } from "effect"

/** An account's credentials as stored: sealed by the TokenVault, never in clear. */
export interface StoredCredentials {
  readonly sealed: string
  /** When the access token ends (epoch ms), kept in clear so expiry can be read without opening. */
  readonly expiresAt: number | null
  /** Grows at every write; a renewal that started from an older version finds the newer one instead. */
  readonly version: number
}

export interface SealedUpdate {
  readonly sealed: string
  readonly expiresAt: number | null
}

export interface CredentialStoreShape {
  /** Stores an account's credentials (a connection or a reconnection). */
  readonly put: (accountId: string, update: SealedUpdate) => Effect.Effect<void>
  readonly get: (accountId: string) => Effect.Effect<Option.Option<StoredCredentials>>
  /**
   * Renews an account's credentials under its lock, so that two processes never both use one
   * rotating refresh token and the newest one is never lost: when the stored version is still
   * `seen`, runs `renew` on it and stores the result; when another process renewed meanwhile,
   * returns theirs without calling `renew`. `renew` runs while the lock is held (a network call).
   */
  readonly renew: <E, R>(accountId: string, seen: number, renew: (current: StoredCredentials) => Effect.Effect<SealedUpdate, E, R>) => Effect.Effect<StoredCredentials, E, R>
  readonly delete: (accountId: string) => Effect.Effect<void>
}

export class CredentialStore extends Context.Service<CredentialStore, CredentialStoreShape>()("herald/CredentialStore") {}
