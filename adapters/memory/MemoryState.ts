import { Context, Effect, Fiber, Layer, Semaphore } from "effect"
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
import type { QueueEntry, Schedule } from "../../domain/schedule.ts"
import type { AccountMetricsState, DueTarget, Reading } from "../../application/ports/MetricsRepo.ts"

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
  /** Endpoints' circuits (hung tries in a row, paused until), by webhook id; absent: closed. */
  circuits: Map<string, { hangs: number; pausedUntil: number | null }>
  schedules: Map<string, Schedule>
  /** Queue entries by `accountId|slotAt`: one post per account and slot. */
  queueEntries: Map<string, QueueEntry>
  /** Accounts' own time zones, by account id. */
  accountZones: Map<string, { workspaceId: string; timeZone: string }>
  /** Published targets whose figures are read, by `postId|accountId`: due time, lease and readings (oldest first). */
  metricTargets: Map<string, MemoryMetricTarget>
  /** Accounts' metrics states, by account id. */
  metricAccounts: Map<string, AccountMetricsState & { workspaceId: string; demandedAt: number | null }>
}

export interface MemoryMetricTarget extends DueTarget {
  readonly dueAt: number | null
  readonly leasedUntil: number | null
  readonly readings: ReadonlyArray<Reading>
}

/** One change to undo: the map, the key, and what it held before (absent when `had` is false). */
interface Undo {
  readonly map: JournaledMap<unknown, unknown>
  readonly key: unknown
  readonly had: boolean
  readonly value: unknown
}

/** A transaction's changes, in order; null once it has ended. */
interface Journal {
  entries: Array<Undo> | null
}

/**
 * The journal of the transaction the running fiber is in (fibers forked inside it inherit it);
 * null outside a transaction. Each transaction records into its own, so a rollback undoes its own
 * writes only.
 */
const CurrentJournal = Context.Reference<Journal | null>("herald/memory/CurrentJournal", { defaultValue: () => null })

const openJournal = (journal: Journal | null): journal is Journal & { entries: Array<Undo> } =>
  journal !== null && journal.entries !== null

/**
 * A Map that records the old value of every entry it changes in the running fiber's transaction
 * journal, so a rollback undoes just those changes: a transaction costs what it writes, not the
 * size of the store.
 */
class JournaledMap<K, V> extends Map<K, V> {
  private record(key: K) {
    const journal = Fiber.getCurrent()?.getRef(CurrentJournal) ?? null
    if (openJournal(journal))
      journal.entries.push({
        map: this as JournaledMap<unknown, unknown>,
        key,
        had: super.has(key),
        value: super.get(key)
      })
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

const empty = (): Tables => ({
  workspaces: new JournaledMap(),
  apiKeys: new JournaledMap(),
  tokens: new JournaledMap(),
  accounts: new JournaledMap(),
  credentials: new JournaledMap(),
  media: new JournaledMap(),
  posts: new JournaledMap(),
  idempotency: new JournaledMap(),
  usage: new JournaledMap(),
  rates: new JournaledMap(),
  jobs: new JournaledMap(),
  events: new JournaledMap(),
  webhooks: new JournaledMap(),
  deliveries: new JournaledMap(),
  circuits: new JournaledMap(),
  schedules: new JournaledMap(),
  queueEntries: new JournaledMap(),
  accountZones: new JournaledMap(),
  metricTargets: new JournaledMap(),
  metricAccounts: new JournaledMap()
})

export interface MemoryStateShape {
  readonly tables: Tables
  /**
   * Runs the effect as one transaction (one at a time; a nested one joins the open one): a failure
   * or defect undoes the writes it made, newest first.
   */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * A repository operation: at once inside a transaction, else after the open one ends, as a
   * one-connection database would have it. So no other fiber writes (or reads half of) what an
   * open transaction may still undo.
   */
  readonly operation: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** `operation` of a synchronous read or write of the tables. */
  readonly sync: <A>(f: () => A) => Effect.Effect<A>
}

export class MemoryState extends Context.Service<MemoryState, MemoryStateShape>()("herald/memory/MemoryState") {}

export const make = Effect.gen(function* () {
  const lock = yield* Semaphore.make(1)
  const rollback = (entries: ReadonlyArray<Undo>) => {
    for (let i = entries.length - 1; i >= 0; i--) {
      const undo = entries[i]!
      undo.map.restoreEntry(undo.key, undo.had, undo.value)
    }
  }
  const operation = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(CurrentJournal, (journal) => (openJournal(journal) ? effect : lock.withPermit(effect)))
  const state: MemoryStateShape = {
    tables: empty(),
    transaction: (effect) =>
      Effect.flatMap(CurrentJournal, (open) =>
        openJournal(open)
          ? effect
          : lock.withPermit(
              Effect.suspend(() => {
                const journal: Journal = { entries: [] }
                return effect.pipe(
                  Effect.provideService(CurrentJournal, journal),
                  Effect.onExit((exit) =>
                    Effect.sync(() => {
                      const entries = journal.entries ?? []
                      journal.entries = null
                      if (exit._tag === "Failure") rollback(entries)
                    })
                  )
                )
              })
            )
      ),
    operation,
    sync: (f) => operation(Effect.sync(f))
  }
  return state
})

export const layer = Layer.effect(MemoryState)(make)
