import { Context, Effect, Layer, Semaphore } from "effect"
import type { Account } from "../../domain/account.ts"
import type { ApiKey } from "../../domain/apiKey.ts"
import type { Media } from "../../domain/media.ts"
import type { Post } from "../../domain/post.ts"
import type { Workspace } from "../../domain/workspace.ts"
import type { IdempotencyRecord } from "../../application/ports/IdempotencyStore.ts"
import type { LeasedJob } from "../../application/ports/JobQueue.ts"
import type { StoredToken } from "../../application/ports/TokenRepo.ts"
import type { StoredCredentials } from "../../application/ports/CredentialStore.ts"
import type { HeraldEvent } from "../../domain/events.ts"
import type { Delivery, Webhook } from "../../domain/webhooks.ts"

/** Everything the memory adapters hold; a transaction undoes its own changes on failure (JournaledMap). */
export interface Tables {
  workspaces: Map<string, Workspace>
  apiKeys: Map<string, ApiKey>
  tokens: Map<string, StoredToken>
  accounts: Map<string, Account>
  credentials: Map<string, StoredCredentials>
  media: Map<string, Media>
  posts: Map<string, Post>
  idempotency: Map<string, IdempotencyRecord>
  usage: Map<string, number>
  rates: Map<string, { windowStart: number; count: number }>
  jobs: Map<string, LeasedJob & { leaseUntil: number | null }>
  /** The outbox, by id; `seq` orders a workspace's feed and a post's deliveries. */
  events: Map<string, HeraldEvent & { seq: number }>
  webhooks: Map<string, Webhook>
  /** Deliveries; `availableAt` is the next try or the lease's end, `seq` their event's. */
  deliveries: Map<string, Delivery & { availableAt: number; seq: number; orderingKey: string }>
}

/** One change to undo: the map, the key, and what it held before (absent when `had` is false). */
interface Undo {
  readonly map: Map<unknown, unknown>
  readonly key: unknown
  readonly had: boolean
  readonly value: unknown
}

/**
 * A Map that, while a transaction is open, records the old value of every entry it changes, so a
 * rollback undoes just those changes: a transaction costs what it writes, not the size of the store.
 */
class JournaledMap<K, V> extends Map<K, V> {
  constructor(private readonly journal: { entries: Array<Undo> | null }) {
    super()
  }
  private record(key: K) {
    this.journal.entries?.push({ map: this as Map<unknown, unknown>, key, had: super.has(key), value: super.get(key) })
  }
  override set(key: K, value: V) {
    this.record(key)
    return super.set(key, value)
  }
  override delete(key: K) {
    if (super.has(key)) this.record(key)
    return super.delete(key)
  }
  override clear() {
    for (const key of super.keys()) this.record(key)
    super.clear()
  }
  /** Writes without recording (undoing). */
  restoreEntry(key: K, had: boolean, value: V | undefined) {
    if (had) super.set(key, value as V)
    else super.delete(key)
  }
}

const empty = (journal: { entries: Array<Undo> | null }): Tables => ({
  workspaces: new JournaledMap(journal),
  apiKeys: new JournaledMap(journal),
  tokens: new JournaledMap(journal),
  accounts: new JournaledMap(journal),
  credentials: new JournaledMap(journal),
  media: new JournaledMap(journal),
  posts: new JournaledMap(journal),
  idempotency: new JournaledMap(journal),
  usage: new JournaledMap(journal),
  rates: new JournaledMap(journal),
  jobs: new JournaledMap(journal),
  events: new JournaledMap(journal),
  webhooks: new JournaledMap(journal),
  deliveries: new JournaledMap(journal)
})


export interface MemoryStateShape {
  readonly tables: Tables
  /** Starts recording changes (one transaction at a time: callers hold `lock`). */
  readonly begin: () => void
  /** Keeps the changes made since `begin`. */
  readonly commit: () => void
  /** Undoes every change made since `begin`, newest first. */
  readonly rollback: () => void
  readonly lock: Semaphore.Semaphore
}

export class MemoryState extends Context.Service<MemoryState, MemoryStateShape>()("herald/memory/MemoryState") {}

export const make = Effect.gen(function* () {
  const lock = yield* Semaphore.make(1)
  const journal: { entries: Array<Undo> | null } = { entries: null }
  const state: MemoryStateShape = {
    tables: empty(journal),
    begin: () => {
      journal.entries = []
    },
    commit: () => {
      journal.entries = null
    },
    rollback: () => {
      const entries = journal.entries ?? []
      journal.entries = null
      for (let i = entries.length - 1; i >= 0; i--) {
        const undo = entries[i]!
        ;(undo.map as JournaledMap<unknown, unknown>).restoreEntry(undo.key, undo.had, undo.value)
      }
    },
    lock
  }
  return state
})

export const layer = Layer.effect(MemoryState)(make)
