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
  Publishers
} from "../../ports/Publishers.ts"
import { credentialsFor, markNeedsReconnection, type NeedsReconnection } from "../credentials.ts"
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
  const credentials = yield* credentialsFor(account.value).pipe(
    Effect.mapError((e) => (e._tag === "NeedsReconnection" ? reconnect(e) : unavailable(e.message, e.retryAfterMs)))
  )
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

/** A network refusal: throttling waits for the window (not a failure), retryable ones (nothing was posted) try again, others are final. */
const refused = (e: PublishError) =>
  e.rateLimited
    ? new RetryLater({
        error: fromNetwork(e),
        retryAfterMs: e.retryAfterMs,
        clearCheckpoint: true,
        countsAsFailure: false
      })
    : e.retryable
      ? new RetryLater({
          error: fromNetwork(e),
          retryAfterMs: e.retryAfterMs,
          clearCheckpoint: true,
          countsAsFailure: true
        })
      : new FinalFailure({ error: fromNetwork(e) })

/** The outcome of the call is not known (timeout, crash inside the call): keep the checkpoint, check next time. */
const unknownOutcome = (message: string) =>
  new RetryLater({
    error: targetError("upstream_unavailable", message),
    retryAfterMs: undefined,
    clearCheckpoint: false,
    countsAsFailure: true
  })

/** One call to the network, bounded by the publish timeout; what it achieved, or why it failed. */
const call = (publisher: Publisher, request: PublishRequest, handle: string | null, options: PipelineOptions) =>
  publisher.publish(request, handle ?? undefined).pipe(
    Effect.timeoutOption(options.publishTimeoutMs),
    Effect.catchDefect(() => Effect.fail(unknownOutcome("The network call stopped without an answer."))),
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(unknownOutcome(`The network did not answer within ${options.publishTimeoutMs} ms.`)),
        onSome: (outcome) => Effect.succeed(outcome)
      })
    )
  )

/**
 * Sends and maps the network's answer. Credentials the network refuses (401) are renewed and the
 * call made once more; refused again, or revoked outright, the account needs reconnecting and no
 * further call is made.
 */
export const send = (publisher: Publisher, request: PublishRequest, handle: string | null, options: PipelineOptions) =>
  call(publisher, request, handle, options).pipe(
    Effect.catch((e) => {
      if (!(e instanceof PublishError)) return Effect.fail(e)
      if (e.revoked)
        return Effect.flatMap(markNeedsReconnection(request.account, e.message), (n) => Effect.fail(reconnect(n)))
      if (!e.unauthorized || request.credentials === null) return Effect.fail(refused(e))
      return Effect.gen(function* () {
        const renewed = yield* credentialsFor(request.account, { force: true }).pipe(
          Effect.mapError((r) =>
            r._tag === "NeedsReconnection" ? reconnect(r) : unavailable(r.message, r.retryAfterMs)
          )
        )
        return yield* call(publisher, { ...request, credentials: Option.getOrNull(renewed) }, handle, options).pipe(
          Effect.catch((again) =>
            again instanceof PublishError && (again.unauthorized || again.revoked)
              ? Effect.flatMap(markNeedsReconnection(request.account, again.message), (n) => Effect.fail(reconnect(n)))
              : Effect.fail(again instanceof PublishError ? refused(again) : again)
          )
        )
      })
    })
  )

/** The publisher's recovery handle for a fresh attempt (null when its network has none). */
export const prepare = (publisher: Publisher, request: PublishRequest) =>
  publisher.prepare === undefined
    ? Effect.succeed(null)
    : publisher.prepare(request).pipe(
        Effect.mapError(refused),
        Effect.catchDefect(() => Effect.fail(unavailable(catalogue.upstream_unavailable.message)))
      )

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
    const recovery =
      publisher.recover === undefined
        ? { _tag: "Unknown" as const }
        : yield* publisher.recover(request, earlier.handle).pipe(
            Effect.mapError((e) =>
              e.retryable
                ? unknownOutcome(e.message)
                : new FinalFailure({ error: targetError("publish_outcome_unknown") })
            ),
            Effect.catchDefect(() => Effect.fail(unknownOutcome("Asking the network about an earlier attempt failed.")))
          )
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
