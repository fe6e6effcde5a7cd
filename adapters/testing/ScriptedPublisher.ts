import { Clock, Context, Effect, Layer, Option } from "effect"
import {
  published,
  type Publisher,
  PublishError,
  type PublishersShape,
  Publishers,
  type PublishRequest,
  type Recovery
} from "../../application/ports/Publishers.ts"
import type { Platform } from "../../domain/platforms.ts"

/** What the fake network does with one publish call. */
export type Behaviour =
  | { readonly _tag: "ok" }
  | { readonly _tag: "fail"; readonly code: string; readonly retryable: boolean; readonly retryAfterMs?: number }
  /** Throttled: try again after `retryAfterMs` (not a failure). */
  | { readonly _tag: "rateLimited"; readonly retryAfterMs: number }
  /** The credentials are refused (401): renewed credentials may work. */
  | { readonly _tag: "unauthorized" }
  /** The grant is gone for good. */
  | { readonly _tag: "revoked" }
  /** Accepted, still processing: come back after `checkAfterMs` (the next call with the handle goes on). */
  | { readonly _tag: "processing"; readonly checkAfterMs: number }
  /** Answers after `ms` (on the Clock, so TestClock drives it). */
  | { readonly _tag: "slow"; readonly ms: number }
  /** Never answers; nothing reaches the network. */
  | { readonly _tag: "hang" }
  /** The post reaches the network, then the call dies without an answer (a crash mid-call). */
  | { readonly _tag: "crash" }

export const Behaviour = {
  ok: { _tag: "ok" } as Behaviour,
  fail: (code: string, retryable: boolean, retryAfterMs?: number): Behaviour => ({
    _tag: "fail",
    code,
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs })
  }),
  slow: (ms: number): Behaviour => ({ _tag: "slow", ms }),
  hang: { _tag: "hang" } as Behaviour,
  crash: { _tag: "crash" } as Behaviour,
  rateLimited: (retryAfterMs: number): Behaviour => ({ _tag: "rateLimited", retryAfterMs }),
  unauthorized: { _tag: "unauthorized" } as Behaviour,
  revoked: { _tag: "revoked" } as Behaviour,
  processing: (checkAfterMs: number): Behaviour => ({ _tag: "processing", checkAfterMs })
}

export interface ScriptedRecord {
  readonly externalId: string
  readonly platform: Platform
  readonly accountId: string
  readonly postId: string
  readonly content: string
  readonly replyTo: PublishRequest["replyTo"]
  readonly request: PublishRequest
  readonly at: number
  /** Publish calls that reached the network with this id: the first stored the record, a repeat only counts. */
  readonly publishes: number
}

export interface ScriptedCall {
  readonly kind: "prepare" | "publish" | "recover" | "unpublish"
  readonly content: string
  readonly handle: string | null
  readonly at: number
}

export interface ScriptedNetworkShape {
  /** Queues behaviours for the next publish calls whose content contains `match` ("" matches all). */
  readonly script: (match: string, ...behaviours: ReadonlyArray<Behaviour>) => void
  /** "handle": recover reads back by handle (Bluesky-like); "unknown": the network cannot tell. */
  readonly setRecovery: (mode: "handle" | "unknown") => void
  /** Every call, in order. */
  readonly calls: () => ReadonlyArray<ScriptedCall>
  /** What reached the network, in order, each with the number of calls that reached it. */
  readonly published: () => ReadonlyArray<ScriptedRecord>
  /** Queues behaviours for the next unpublish calls (ok, fail, rateLimited, unauthorized, hang, crash). */
  readonly scriptUnpublish: (...behaviours: ReadonlyArray<Behaviour>) => void
  /** The ids the network removed, in order, once each (a repeat of a removed id removes nothing). */
  readonly removed: () => ReadonlyArray<string>
}

/** The fake network's controls and records, as a second service (tests assert on it). */
export class ScriptedNetwork extends Context.Service<ScriptedNetwork, ScriptedNetworkShape>()(
  "herald/testing/ScriptedNetwork"
) {}

/** A publisher for pipeline tests: scripted failures, slowness, hangs and crashes; handles like Bluesky's. */
export const make = (platforms: ReadonlyArray<Platform>) => {
  const scripts: Array<{ match: string; queue: Array<Behaviour> }> = []
  const calls: Array<ScriptedCall> = []
  const records = new Map<string, Omit<ScriptedRecord, "publishes">>()
  const publishes = new Map<string, number>()
  let recovery: "handle" | "unknown" = "handle"
  const unpublishScript: Array<Behaviour> = []
  const removed: Array<string> = []
  // Like the networks' delete calls: removing an id already gone (or never there) succeeds and removes nothing.
  const remove = (externalId: string) => {
    if (records.delete(externalId)) removed.push(externalId)
  }
  let seq = 0
  const next = (content: string): Behaviour => {
    const script = scripts.find((s) => s.queue.length > 0 && content.includes(s.match))
    return script?.queue.shift() ?? Behaviour.ok
  }
  const record = (platform: Platform, request: PublishRequest, externalId: string, at: number) => {
    // Like Bluesky with a prepared record key: a repeat posts nothing new, but it is a second call.
    publishes.set(externalId, (publishes.get(externalId) ?? 0) + 1)
    if (records.has(externalId)) return
    records.set(externalId, {
      externalId,
      platform,
      accountId: request.account.id,
      postId: request.postId,
      content: request.content,
      replyTo: request.replyTo,
      request,
      at
    })
  }
  const publisherFor = (platform: Platform): Publisher => ({
    platform,
    prepare: (request) =>
      Effect.map(Clock.currentTimeMillis, (at) => {
        const handle = `ext_${++seq}`
        calls.push({ kind: "prepare", content: request.content, handle, at })
        return handle
      }),
    publish: (request, handle) =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        calls.push({ kind: "publish", content: request.content, handle: handle ?? null, at })
        const behaviour = next(request.content)
        const externalId = handle ?? `ext_${++seq}`
        const url = `https://scripted.invalid/${externalId}`
        switch (behaviour._tag) {
          case "fail":
            return yield* Effect.fail(
              behaviour.retryable
                ? PublishError.unavailable({
                    code: behaviour.code,
                    message: `Scripted failure (${behaviour.code}).`,
                    retryAfterMs: behaviour.retryAfterMs
                  })
                : PublishError.refused({ code: behaviour.code, message: `Scripted failure (${behaviour.code}).` })
            )
          case "rateLimited":
            return yield* Effect.fail(
              PublishError.rateLimited({ message: "Scripted rate limit.", retryAfterMs: behaviour.retryAfterMs })
            )
          case "unauthorized":
            return yield* Effect.fail(PublishError.unauthorized({ message: "Scripted 401." }))
          case "revoked":
            return yield* Effect.fail(PublishError.revoked({ message: "Scripted revoked grant." }))
          case "processing":
            return { _tag: "Processing" as const, handle: externalId, checkAfterMs: behaviour.checkAfterMs }
          case "hang":
            return yield* Effect.never
          case "crash":
            record(platform, request, externalId, at)
            return yield* Effect.die(new Error("scripted crash after the network received the post"))
          case "slow":
            yield* Effect.sleep(behaviour.ms)
            break
          case "ok":
            break
        }
        record(platform, request, externalId, yield* Clock.currentTimeMillis)
        return published(externalId, url)
      }),
    recover: (request, handle) =>
      Effect.map(Clock.currentTimeMillis, (at): Recovery => {
        calls.push({ kind: "recover", content: request.content, handle, at })
        if (recovery === "unknown" || handle === null) return { _tag: "Unknown" }
        return records.has(handle)
          ? { _tag: "Published", published: { externalId: handle, url: `https://scripted.invalid/${handle}` } }
          : { _tag: "NotPublished" }
      }),
    unpublish: (request) =>
      Effect.gen(function* () {
        calls.push({ kind: "unpublish", content: request.externalId, handle: null, at: yield* Clock.currentTimeMillis })
        const behaviour = unpublishScript.shift() ?? Behaviour.ok
        switch (behaviour._tag) {
          case "fail":
            return yield* Effect.fail(
              behaviour.retryable
                ? PublishError.unavailable({ code: behaviour.code, message: `Scripted failure (${behaviour.code}).` })
                : PublishError.refused({ code: behaviour.code, message: `Scripted failure (${behaviour.code}).` })
            )
          case "rateLimited":
            return yield* Effect.fail(
              PublishError.rateLimited({ message: "Scripted rate limit.", retryAfterMs: behaviour.retryAfterMs })
            )
          case "unauthorized":
            return yield* Effect.fail(PublishError.unauthorized({ message: "Scripted 401." }))
          case "hang":
            return yield* Effect.never
          case "crash":
            remove(request.externalId)
            return yield* Effect.die(new Error("scripted crash after the network removed the post"))
          case "slow":
            yield* Effect.sleep(behaviour.ms)
            break
          default:
            break
        }
        remove(request.externalId)
      })
  })
  const publishers = new Map(platforms.map((p) => [p, publisherFor(p)]))
  const registry: PublishersShape = { get: (platform) => Option.fromNullishOr(publishers.get(platform)) }
  const network: ScriptedNetworkShape = {
    script: (match, ...behaviours) => void scripts.push({ match, queue: [...behaviours] }),
    setRecovery: (mode) => void (recovery = mode),
    calls: () => [...calls],
    published: () => [...records.values()].map((r) => ({ ...r, publishes: publishes.get(r.externalId) ?? 0 })),
    scriptUnpublish: (...behaviours) => void unpublishScript.push(...behaviours),
    removed: () => [...removed]
  }
  return { registry, network }
}

/** Publishers for `platforms` (sandbox accounts by default) backed by the scripted network, plus its controls. */
export const layer = (platforms: ReadonlyArray<Platform> = ["sandbox"]) =>
  Layer.effectContext(
    Effect.sync(() => {
      const { registry, network } = make(platforms)
      return Context.make(Publishers, registry).pipe(Context.add(ScriptedNetwork, network))
    })
  )
