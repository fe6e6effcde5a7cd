import { Clock, Config, Context, Effect, Layer, Option } from "effect"
import type { RawFigures } from "../../../domain/metrics.ts"
import {
  type MetricsCapability,
  published,
  type PublishOutcome,
  type PublishRequest,
  PublishError,
  type Publisher
} from "../../../application/ports/Publishers.ts"

export interface SandboxRecord {
  readonly externalId: string
  readonly accountId: string
  readonly postId: string
  readonly content: string
  readonly replyTo: PublishRequest["replyTo"]
  readonly mediaIds: ReadonlyArray<string>
  readonly poll: PublishRequest["poll"]
  readonly cover: PublishRequest["cover"]
  readonly tiktokAiGenerated: boolean
  readonly at: number
}

/**
 * Where the sandbox network keeps what it "published". In memory by default; the benchmark and the
 * crash test put it in PostgreSQL so that several scheduler processes share one network.
 */
export interface SandboxLedgerShape {
  /**
   * Stores a record; false when its externalId is already there (the network's idempotency). Every
   * call counts, stored or not, so a test can tell one call per handle from a repeat the id absorbed.
   */
  readonly append: (record: SandboxRecord) => Effect.Effect<boolean>
  /** How many publish calls named this externalId (0: none). */
  readonly publishes: (externalId: string) => Effect.Effect<number>
  readonly find: (externalId: string) => Effect.Effect<Option.Option<SandboxRecord>>
  /** Takes a record down; false when it was not there (already removed, or never published). */
  readonly remove: (externalId: string) => Effect.Effect<boolean>
  readonly all: () => Effect.Effect<ReadonlyArray<SandboxRecord>>
}

export class SandboxLedger extends Context.Service<SandboxLedger, SandboxLedgerShape>()(
  "herald/sandbox/SandboxLedger"
) {}

/** What the sandbox network "published", in order, for tests and the demo. */
export class SandboxPublished extends Context.Service<
  SandboxPublished,
  { readonly all: () => ReadonlyArray<SandboxRecord> }
>()("herald/sandbox/SandboxPublished") {}

/** The sandbox publisher itself, for the registry to pick up. */
export class SandboxPublisherTag extends Context.Service<SandboxPublisherTag, Publisher>()(
  "herald/sandbox/Publisher"
) {}

export const makeMemoryLedger = (): SandboxLedgerShape & { readonly records: Array<SandboxRecord> } => {
  const records: Array<SandboxRecord> = []
  const byId = new Map<string, SandboxRecord>()
  const calls = new Map<string, number>()
  return {
    records,
    append: (record) =>
      Effect.sync(() => {
        calls.set(record.externalId, (calls.get(record.externalId) ?? 0) + 1)
        if (byId.has(record.externalId)) return false
        byId.set(record.externalId, record)
        records.push(record)
        return true
      }),
    publishes: (externalId) => Effect.sync(() => calls.get(externalId) ?? 0),
    find: (externalId) => Effect.sync(() => Option.fromNullishOr(byId.get(externalId))),
    remove: (externalId) =>
      Effect.sync(() => {
        const record = byId.get(externalId)
        if (record === undefined) return false
        byId.delete(externalId)
        records.splice(records.indexOf(record), 1)
        return true
      }),
    all: () => Effect.sync(() => [...records])
  }
}

const urlOf = (request: PublishRequest, externalId: string) =>
  `https://sandbox.herald.invalid/${request.account.username}/${externalId}`

/**
 * Accepts every capability, and fails like a real network on demand, to see failures end to end:
 * content with `#fail` is refused, `#duplicate` is a duplicate, `#expired` revokes the account's
 * access (it then needs reconnecting), `#ratelimit` is throttled once for 5 s, `#flaky` fails once. Like Bluesky, the id is chosen up front (`prepare`), so a lost
 * attempt is checked by reading it back (`recover`) and a repeated call with it posts nothing new.
 */
export interface SandboxOptions {
  /** Simulated network time per call, half before the post lands and half after (0: none). */
  readonly latencyMs: number
}

export const makePublisherWith = (options: SandboxOptions) =>
  Effect.gen(function* () {
    const ledger = yield* SandboxLedger
    const half = Math.floor(options.latencyMs / 2)
    const wait = half > 0 ? Effect.sleep(half) : Effect.void
    // Each demo failure happens once per post, account and step, then the sandbox behaves.
    const once = new Set<string>()
    const firstTime = (tag: string, request: PublishRequest) => {
      const key = `${tag}:${request.postId}:${request.account.id}:${request.replyTo?.parentId ?? "root"}`
      if (once.has(key)) return false
      once.add(key)
      return true
    }
    const publish = (request: PublishRequest, handle?: string) =>
      Effect.suspend((): Effect.Effect<PublishOutcome, PublishError> => {
        const text = request.content
        if (text.includes("#fail"))
          return Effect.fail(
            PublishError.refused({ code: "upstream_rejected", message: "The sandbox refused the content (#fail)." })
          )
        if (text.includes("#duplicate"))
          return Effect.fail(
            PublishError.refused({
              code: "duplicate_content",
              message: "The sandbox says this text was just posted (#duplicate)."
            })
          )
        if (text.includes("#expired"))
          return Effect.fail(
            PublishError.revoked({ message: "The sandbox says the account's access was revoked (#expired)." })
          )
        if (text.includes("#ratelimit") && firstTime("ratelimit", request))
          return Effect.fail(
            PublishError.rateLimited({
              message: "The sandbox is rate limiting this account (#ratelimit); the window resets in 5 s.",
              retryAfterMs: 5000
            })
          )
        if (text.includes("#flaky") && firstTime("flaky", request))
          return Effect.fail(PublishError.unavailable({ message: "The sandbox is briefly unavailable (#flaky)." }))
        const externalId = handle ?? newId()
        const record: SandboxRecord = {
          externalId,
          accountId: request.account.id,
          postId: request.postId,
          content: request.content,
          replyTo: request.replyTo,
          mediaIds: request.media.map((m) => m.id),
          poll: request.poll,
          cover: request.cover,
          tiktokAiGenerated: request.tiktokAiGenerated,
          at: Date.now()
        }
        return wait.pipe(
          Effect.andThen(ledger.append(record)),
          Effect.andThen(wait),
          Effect.as(published(externalId, urlOf(request, externalId)))
        )
      })
    const metrics: MetricsCapability = {
      batch: 100,
      read: (request) =>
        Effect.gen(function* () {
          yield* wait
          const now = yield* Clock.currentTimeMillis
          const figures = new Map<string, RawFigures>()
          for (const post of request.posts) {
            const found = yield* ledger.find(post.externalId)
            if (Option.isNone(found)) continue
            if (found.value.content.includes("#nometrics"))
              return {
                _tag: "NotOffered" as const,
                reason: "The sandbox account has no analytics access (#nometrics)."
              }
            figures.set(post.externalId, sandboxFigures(post.externalId, now - post.publishedAt))
          }
          yield* wait
          return { _tag: "Read" as const, figures }
        })
    }
    const publisher: Publisher = {
      platform: "sandbox",
      metrics,
      prepare: () => Effect.sync(newId),
      publish,
      recover: (request, handle) =>
        handle === null
          ? Effect.succeed({ _tag: "Unknown" as const })
          : Effect.map(ledger.find(handle), (found) =>
              Option.isSome(found)
                ? { _tag: "Published" as const, published: { externalId: handle, url: urlOf(request, handle) } }
                : { _tag: "NotPublished" as const }
            ),
      // Like the real networks: an item already gone counts as removed.
      // Half the latency before the record goes, half after: a crash can land between the removal and the answer.
      unpublish: (request) => wait.pipe(Effect.andThen(ledger.remove(request.externalId)), Effect.andThen(wait))
    }
    return publisher
  })

export const makePublisher = makePublisherWith({ latencyMs: 0 })

/** Made-up but steady figures that grow with a post's age: the sandbox's own, for demos and tests. */
export const sandboxFigures = (externalId: string, ageMs: number): RawFigures => {
  let seed = 0
  for (const c of externalId) seed = (seed * 31 + c.charCodeAt(0)) % 1000
  const views = Math.floor((20 + (seed % 100)) * Math.sqrt(Math.max(0, ageMs) / 3_600_000 + 1))
  return {
    views,
    likes: Math.floor(views / 10),
    replies: Math.floor(views / 50),
    reposts: Math.floor(views / 40),
    saves: Math.floor(views / 60),
    clicks: Math.floor(views / 30)
  }
}

const newId = () => `sbx_${globalThis.crypto.randomUUID().replaceAll("-", "")}`

export const layer = (options: SandboxOptions) => Layer.effect(SandboxPublisherTag)(makePublisherWith(options))

/**
 * The publisher on whatever SandboxLedger is provided; HERALD_SANDBOX_LATENCY_MS (default 0)
 * makes it answer like a slow network (demos, the crash test).
 */
export const layerConfig = Layer.effect(SandboxPublisherTag)(
  Effect.flatMap(Config.Int("HERALD_SANDBOX_LATENCY_MS").pipe(Config.withDefault(0)), (latencyMs) =>
    makePublisherWith({ latencyMs })
  )
)

/** The publisher on an in-memory ledger, with SandboxPublished to read it back (tests, embedded demo). */
export const layerTest = Layer.effectContext(
  Effect.gen(function* () {
    const ledger = makeMemoryLedger()
    const publisher = yield* Effect.provideService(makePublisher, SandboxLedger, ledger)
    return Context.make(SandboxPublished, { all: () => [...ledger.records] }).pipe(
      Context.add(SandboxPublisherTag, publisher),
      Context.add(SandboxLedger, ledger)
    )
  })
)
