import { Context, type Effect, type Option } from "effect"
import type { ApiKey } from "../../domain/apiKey.ts"

export interface ApiKeyRepoShape {
  readonly insert: (key: ApiKey) => Effect.Effect<void>
  /** The key whose SHA-256 is `hash`, revoked or not. */
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>>
  readonly listByWorkspace: (workspaceId: string) => Effect.Effect<ReadonlyArray<ApiKey>>
  /** Records a use at `at`, unless one within KEY_USE_RESOLUTION_MS before it is already recorded. */
  readonly recordUse: (id: string, at: number) => Effect.Effect<void>
  readonly revoke: (workspaceId: string, id: string, now: number) => Effect.Effect<boolean>
}

export class ApiKeyRepo extends Context.Service<ApiKeyRepo, ApiKeyRepoShape>()("herald/ApiKeyRepo") {}
