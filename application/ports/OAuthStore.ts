import { Context, type Effect, type Option } from "effect"
import type { AuthorizationCode, OAuthClient, OAuthGrant, OAuthToken } from "../../domain/oauth.ts"

/** Herald's authorization server's records: clients, grants (a person's consent), codes and tokens (hashed). */
export interface OAuthStoreShape {
  /** Inserts or replaces a client (a document client is stored again each time its document is read). */
  readonly saveClient: (client: OAuthClient) => Effect.Effect<void>
  readonly findClient: (id: string) => Effect.Effect<Option.Option<OAuthClient>>
  readonly insertGrant: (grant: OAuthGrant) => Effect.Effect<void>
  readonly findGrant: (id: string) => Effect.Effect<Option.Option<OAuthGrant>>
  /** A workspace's grants, revoked ones included, oldest first. */
  readonly listGrants: (workspaceId: string) => Effect.Effect<ReadonlyArray<OAuthGrant>>
  /** Ends a live grant (of that workspace when one is given) and deletes its tokens; whether one was live. */
  readonly revokeGrant: (id: string, workspaceId: string | null, now: number) => Effect.Effect<boolean>
  /** Records a use at `at`, unless one within KEY_USE_RESOLUTION_MS before it is already recorded. */
  readonly recordGrantUse: (id: string, at: number) => Effect.Effect<void>
  readonly insertCode: (code: AuthorizationCode) => Effect.Effect<void>
  /** Takes a code: returns it and deletes it in one step, if unexpired. */
  readonly consumeCode: (hash: string, now: number) => Effect.Effect<Option.Option<AuthorizationCode>>
  readonly insertToken: (token: OAuthToken) => Effect.Effect<void>
  /** A token by its hash, expired or used ones too (the caller judges; a used refresh token is a replay). */
  readonly findToken: (hash: string) => Effect.Effect<Option.Option<OAuthToken>>
  /** Marks an unused refresh token used; false when it was used already (two refreshes racing: one wins). */
  readonly useRefreshToken: (hash: string, now: number) => Effect.Effect<boolean>
  /** Deletes up to `limit` codes and up to `limit` tokens expired at `now`; how many went. */
  readonly sweep: (now: number, limit: number) => Effect.Effect<number>
}

export class OAuthStore extends Context.Service<OAuthStore, OAuthStoreShape>()("herald/OAuthStore") {}
