import { Cache, Context, Effect, Layer, Option } from "effect"
import type { Account } from "../domain/account.ts"
import { type ApiKey, KEY_USE_RESOLUTION_MS } from "../domain/apiKey.ts"
import type { OAuthGrant, OAuthToken } from "../domain/oauth.ts"
import type { Workspace } from "../domain/workspace.ts"
import { AccountRepo } from "./ports/AccountRepo.ts"
import { ApiKeyRepo } from "./ports/ApiKeyRepo.ts"
import { OAuthStore } from "./ports/OAuthStore.ts"
import { WorkspaceRepo } from "./ports/WorkspaceRepo.ts"

/** The hot reads of every request: an API key by its hash, a workspace, a workspace's accounts. */
export interface ReadCacheShape {
  readonly apiKey: (hash: string) => Effect.Effect<Option.Option<ApiKey>>
  /** An OAuth token by its hash, with its grant (an MCP request's two reads in one). */
  readonly oauthToken: (
    hash: string
  ) => Effect.Effect<Option.Option<{ readonly token: OAuthToken; readonly grant: Option.Option<OAuthGrant> }>>
  readonly workspace: (id: string) => Effect.Effect<Option.Option<Workspace>>
  readonly accounts: (workspaceId: string) => Effect.Effect<ReadonlyArray<Account>>
  /** Forgets every key and OAuth token (one was revoked). */
  readonly forgetKeys: Effect.Effect<void>
  readonly forgetAccounts: (workspaceId: string) => Effect.Effect<void>
  readonly forgetWorkspace: (id: string) => Effect.Effect<void>
  /** Whether this process should write a use of the key now: true at most once per KEY_USE_RESOLUTION_MS per key. */
  readonly useToRecord: (keyId: string, at: number) => boolean
}

const CAPACITY_USES = 10_000

/** The per-process memory of key uses written: keeps the write off all but one request an hour per key. */
const useRecorder = () => {
  const written = new Map<string, number>()
  return (keyId: string, at: number) => {
    const last = written.get(keyId)
    if (last !== undefined && last > at - KEY_USE_RESOLUTION_MS) return false
    if (written.size >= CAPACITY_USES) written.clear()
    written.set(keyId, at)
    return true
  }
}

/**
 * A short-lived, per-process cache of those reads (Effect's Cache: one lookup per key at a time,
 * entries expire after the time-to-live). What it trades: a change made by another process (a key
 * revoked elsewhere) is seen after at most the time-to-live; changes made through this process
 * invalidate at once.
 */
export class ReadCache extends Context.Service<ReadCache, ReadCacheShape>()("herald/ReadCache") {}

const CAPACITY = 10_000

type Reads = ApiKeyRepo | OAuthStore | WorkspaceRepo | AccountRepo

/** Reads straight from the repositories: what a host without a cache (or a time-to-live of 0) gets. */
const readThrough: Effect.Effect<ReadCacheShape, never, Reads> = Effect.gen(function* () {
  const keys = yield* ApiKeyRepo
  const oauth = yield* OAuthStore
  const workspaces = yield* WorkspaceRepo
  const accounts = yield* AccountRepo
  return {
    apiKey: (hash) => keys.findByHash(hash),
    oauthToken: (hash) =>
      Effect.flatMap(oauth.findToken(hash), (token) =>
        Option.isNone(token)
          ? Effect.succeed(Option.none())
          : Effect.map(oauth.findGrant(token.value.grantId), (grant) => Option.some({ token: token.value, grant }))
      ),
    workspace: (id) => workspaces.findById(id),
    accounts: (workspaceId) => accounts.listByWorkspace(workspaceId),
    forgetKeys: Effect.void,
    forgetAccounts: () => Effect.void,
    forgetWorkspace: () => Effect.void,
    useToRecord: useRecorder()
  } satisfies ReadCacheShape
})

export const make = (ttlMs: number) =>
  Effect.gen(function* () {
    const direct = yield* readThrough
    if (ttlMs <= 0) return direct
    const options = { capacity: CAPACITY, timeToLive: ttlMs }
    const apiKeys = yield* Cache.make({ ...options, lookup: direct.apiKey })
    const oauthTokens = yield* Cache.make({ ...options, lookup: direct.oauthToken })
    const workspaces = yield* Cache.make({ ...options, lookup: direct.workspace })
    const accounts = yield* Cache.make({ ...options, lookup: direct.accounts })
    return {
      apiKey: (hash) => Cache.get(apiKeys, hash),
      oauthToken: (hash) => Cache.get(oauthTokens, hash),
      workspace: (id) => Cache.get(workspaces, id),
      accounts: (workspaceId) => Cache.get(accounts, workspaceId),
      forgetKeys: Effect.andThen(Cache.invalidateAll(apiKeys), Cache.invalidateAll(oauthTokens)),
      forgetAccounts: (workspaceId) => Cache.invalidate(accounts, workspaceId),
      forgetWorkspace: (id) => Cache.invalidate(workspaces, id),
      useToRecord: direct.useToRecord
    } satisfies ReadCacheShape
  })

export const layer = (ttlMs: number) => Layer.effect(ReadCache)(make(ttlMs))

/** The provided cache, or reads straight through: hosts opt in. */
export const readCache: Effect.Effect<ReadCacheShape, never, Reads> = Effect.flatMap(
  Effect.serviceOption(ReadCache),
  (o): Effect.Effect<ReadCacheShape, never, Reads> => (o._tag === "Some" ? Effect.succeed(o.value) : readThrough)
)
