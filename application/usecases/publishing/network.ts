import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import { catalogue, type ErrorCode } from "../../../domain/errors.ts"
import type { Media } from "../../../domain/media.ts"
import type { Post, TargetError } from "../../../domain/post.ts"
import type { LeasedJob } from "../../ports/JobQueue.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import type { NetworkCredentials } from "../../ports/Connectors.ts"
import {
  type Published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  Publishers,
  type Recovery,
  type UnpublishRequest
} from "../../ports/Publishers.ts"
import type { NetworkUnavailable } from "../../ports/Connectors.ts"
import { authorized, credentialsFor, type NeedsReconnection } from "../credentials.ts"
import { findAccount } from "./accountCache.ts"
import type { PipelineOptions } from "./options.ts"
import { FinalFailure, LeaseLost, RetryLater } from "./outcomes.ts"
import { PublishingSteps } from "./steps.ts"

export const targetError = (code: ErrorCode, message?: string): TargetError => ({
  code,
  message: message ?? catalogue[code].message,
  retryable: catalogue[code].retryable
})

const final = (code: ErrorCode, message?: string) =>
  Effect.fail(new FinalFailure({ error: targetError(code, message) }))

export interface Network {
  readonly account: Account
  readonly publisher: Publisher
  readonly credentials: NetworkCredentials | null
}

const reconnect = (e: NeedsReconnection) =>
  new FinalFailure({ error: targetError("account_needs_reconnection", e.message) })

/**
 * The target's account, its network's publisher and the account's fresh credentials; a final
 * failure when any is unusable (disconnected, needing reconnection, network turned off).
 */
export const networkFor = Effect.fnUntraced(function* (job: LeasedJob) {
  const account = yield* findAccount(job.workspaceId, job.accountId)
  if (Option.isNone(account)) return yield* final("account_disconnected")
  if (account.value.status !== "connected") return yield* final("account_needs_reconnection")
  const publisher = (yield* Publishers).get(account.value.platform)
  if (Option.isNone(publisher)) return yield* final("platform_unavailable")
  const credentials = yield* credentialsFor(account.value).pipe(Effect.mapError(outcomeOf))
  return {
    account: account.value,
    publisher: publisher.value,
    credentials: Option.getOrNull(credentials)
  } satisfies Network
})

const unavailable = (message: string, retryAfterMs?: number) =>
  new RetryLater({
    error: targetError("upstream_unavailable", message),
    retryAfterMs,
    clearCheckpoint: true,
    countsAsFailure: true
  })

/** The target's uploads (`mediaIds`, its final media) in order, and the post's cover upload; a final failure when one is gone. */
export const mediaFor = Effect.fnUntraced(function* (post: Post, mediaIds: ReadonlyArray<string>) {
  const coverId = post.cover !== null && "mediaId" in post.cover ? post.cover.mediaId : null
  const ids = coverId === null ? mediaIds : [...mediaIds, coverId]
  if (ids.length === 0) return { media: [] as ReadonlyArray<Media>, coverMedia: null }
  const found = new Map((yield* (yield* MediaRepo).findByIds(post.workspaceId, ids)).map((m) => [m.id, m]))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) return yield* final("media_not_found", `Uploads are gone: ${missing.join(", ")}.`)
  return { media: mediaIds.map((id) => found.get(id)!), coverMedia: coverId === null ? null : found.get(coverId)! }
})

const fromNetwork = (e: PublishError): TargetError => ({
  code: e.code,
  message: e.message,
  retryable: e.retryable
})

/**
 * A network's refusal as the job's outcome: throttling waits for the window (not a failure); trouble
 * that may pass tries again; an answer lost after sending keeps the checkpoint, to ask the network
 * next time; a refusal is final. Unauthorized and Revoked never get here (`authorized` took them).
 */
const refused = (e: PublishError) => {
  switch (e.reason._tag) {
    case "RateLimited":
      return new RetryLater({
        error: fromNetwork(e),
        retryAfterMs: e.retryAfterMs,
        clearCheckpoint: true,
        countsAsFailure: false
      })
    case "Unavailable":
      return new RetryLater({
        error: fromNetwork(e),
        retryAfterMs: e.retryAfterMs,
        clearCheckpoint: true,
        countsAsFailure: true
      })
    case "OutcomeUnknown":
      return unknownOutcome(e.message)
    default:
      return new FinalFailure({ error: fromNetwork(e) })
  }
}

/** What a call acting as the account failed with, as the job's outcome. */
const outcomeOf = (e: PublishError | NeedsReconnection | NetworkUnavailable) =>
  e._tag === "PublishError"
    ? refused(e)
    : e._tag === "NeedsReconnection"
      ? reconnect(e)
      : unavailable(e.message, e.retryAfterMs)

/** The outcome of the call is not known (timeout, an answer lost after sending): keep the checkpoint, check next time. */
const unknownOutcome = (message: string) =>
  new RetryLater({
    error: targetError("upstream_unavailable", message),
    retryAfterMs: undefined,
    clearCheckpoint: false,
    countsAsFailure: true
  })

/** One call to the network, bounded by the publish timeout: past it, the outcome is unknown. */
const bounded = <A>(call: Effect.Effect<A, PublishError>, options: PipelineOptions) =>
  call.pipe(
    Effect.timeoutOption(options.publishTimeoutMs),
    Effect.flatMap(
      Option.match({
        onNone: () =>
          Effect.fail(
            PublishError.outcomeUnknown({
              message: `The network did not answer within ${options.publishTimeoutMs} ms.`
            })
          ),
        onSome: (outcome) => Effect.succeed(outcome)
      })
    )
  )

/** Sends and maps the network's answer; refused credentials are handled by `authorized` (renew once, else reconnect). */
export const send = (publisher: Publisher, request: PublishRequest, handle: string | null, options: PipelineOptions) =>
  authorized(request.account, request.credentials, (credentials) =>
    bounded(publisher.publish({ ...request, credentials }, handle ?? undefined), options)
  ).pipe(Effect.mapError(outcomeOf))

/**
 * Removes one item from the network, mapped like a publish call. A repeat is harmless (the port counts
 * an item already gone as removed), so a lost answer is simply asked again.
 */
export const unpublishItem = (
  unpublish: NonNullable<Publisher["unpublish"]>,
  request: UnpublishRequest,
  options: PipelineOptions
) =>
  authorized(request.account, request.credentials, (credentials) =>
    bounded(unpublish({ ...request, credentials }), options)
  ).pipe(Effect.mapError(outcomeOf))

/** The publisher's recovery handle for a fresh attempt, stored before any call that may post. */
export const prepare = (publisher: Publisher, request: PublishRequest) =>
  authorized(request.account, request.credentials, (credentials) =>
    publisher.prepare({ ...request, credentials })
  ).pipe(Effect.mapError(outcomeOf))

/** What the network says about an earlier attempt; an answer it cannot give now is asked again later. */
const recover = (publisher: Publisher, request: PublishRequest, handle: string | null) => {
  const recoverWith = publisher.recover
  return recoverWith === undefined
    ? Effect.succeed<Recovery>({ _tag: "Unknown" })
    : authorized(request.account, request.credentials, (credentials) =>
        recoverWith({ ...request, credentials }, handle)
      ).pipe(
        Effect.mapError((e) =>
          e._tag !== "PublishError"
            ? outcomeOf(e)
            : e.retryable
              ? unknownOutcome(e.message)
              : new FinalFailure({ error: targetError("publish_outcome_unknown") })
        )
      )
}

/**
 * Publishes step `step` (0: the post, n: thread reply n) without ever calling blindly twice. If the
 * lease-time checkpoint names this step, an earlier attempt may have reached the network: ask it
 * (`recover`), and only send again when it says nothing arrived. Otherwise prepare, store the
 * checkpoint (before any network call), then send.
 */
export const publishStep = Effect.fnUntraced(function* (
  job: LeasedJob,
  step: number,
  request: PublishRequest,
  publisher: Publisher,
  options: PipelineOptions
) {
  const earlier = job.checkpoint
  let outcome: PublishOutcome
  if (earlier !== null && earlier.step === step) {
    const recovery = yield* recover(publisher, request, earlier.handle)
    if (recovery._tag === "Published") return recovery.published satisfies Published
    if (recovery._tag === "Unknown" || earlier.handle === null) return yield* final("publish_outcome_unknown")
    // Nothing is live yet: send again (or go on processing) with the stored handle, so the network can tell it is one post.
    outcome = yield* send(publisher, request, earlier.handle, options)
  } else {
    const handle = yield* prepare(publisher, request)
    if (!(yield* (yield* PublishingSteps).checkpoint(job, { step, handle }))) return yield* Effect.fail(new LeaseLost())
    outcome = yield* send(publisher, request, handle, options)
  }
  if (outcome._tag === "Published") return outcome.published
  // The network is still processing: keep how far it got and free the worker until it is worth asking again.
  if (!(yield* (yield* PublishingSteps).checkpoint(job, { step, handle: outcome.handle })))
    return yield* Effect.fail(new LeaseLost())
  return yield* Effect.fail(
    new RetryLater({
      error: targetError("upstream_processing"),
      retryAfterMs: outcome.checkAfterMs,
      clearCheckpoint: false,
      countsAsFailure: false
    })
  )
})
