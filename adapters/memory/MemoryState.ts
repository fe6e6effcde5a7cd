import { Context, Effect, Layer, Semaphore } from "effect"
import type { Account } from "../../domain/account.ts"
import type { ApiKey } from "../../domain/apiKey.ts"
import type { Media } from "../../domain/media.ts"
import type { Post } from "../../domain/post.ts"
import type { Workspace } from "../../domain/workspace.ts"
import type { IdempotencyRecord } from "../../application/ports/IdempotencyStore.ts"
import type { LeasedJob } from "../../application/ports/JobQueue.ts"
import type { StoredToken } from "../../application/ports/TokenRepo.ts"

/** Everything the memory adapters hold; one object so a transaction can snapshot and restore it. */
export interface Tables {
  workspaces: Map<string, Workspace>
  apiKeys: Map<string, ApiKey>
  tokens: Map<string, StoredToken>
  accounts: Map<string, Account>
  media: Map<string, Media>
  posts: Map<string, Post>
  idempotency: Map<string, IdempotencyRecord>
  usage: Map<string, number>
  rates: Map<string, { windowStart: number; count: number }>
  jobs: Map<string, LeasedJob & { leaseUntil: number | null }>
}

const empty = (): Tables => ({
  workspaces: new Map(),
  apiKeys: new Map(),
  tokens: new Map(),
  accounts: new Map(),
  media: new Map(),
  posts: new Map(),
  idempotency: new Map(),
  usage: new Map(),
  rates: new Map(),
  jobs: new Map()
})

export interface MemoryStateShape {
  tables: Tables
  /** Copies every table; values are immutable records, so a shallow copy of each map suffices. */
  readonly snapshot: () => Tables
  readonly restore: (tables: Tables) => void
  readonly lock: Semaphore.Semaphore
}

export class MemoryState extends Context.Service<MemoryState, MemoryStateShape>()("herald/memory/MemoryState") {}

export const make = Effect.gen(function* () {
  const lock = yield* Semaphore.make(1)
  const state: MemoryStateShape = {
    tables: empty(),
    snapshot: () => {
      const t = state.tables
      return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, new Map(v as Map<unknown, unknown>)])) as unknown as Tables
    },
    restore: (tables) => {
      state.tables = tables
    },
    lock
  }
  return state
})

export const layer = Layer.effect(MemoryState)(make)
