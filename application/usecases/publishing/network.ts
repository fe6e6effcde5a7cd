import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import { catalogue, type ErrorCode } from "../../../domain/errors.ts"
import type { Media } from "../../../domain/media.ts"
import type { Post, TargetError } from "../../../domain/post.ts"
import type { LeasedJob } from "../../ports/JobQueue.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { type Published, type PublishError, type Publisher, type PublishRequest, Publishers } from "../../ports/Publishers.ts"
import { findAccount } from "./accountCache.ts"
import type { PipelineOptions } from "./options.ts"
import { FinalFailure, LeaseLost, RetryLater } from "./outcomes.ts"
import { PublishingSteps } from "./steps.ts"

export const targetError = (code: ErrorCode, message?: string): TargetError => ({
  code,
  message: message ?? catalogue[code].message,
  retryable: catalogue[code].retryable
})

const final = (code: ErrorCode, message?: string) => Effect.fail(new FinalFailure({ error: targetError(code, message) }))

export interface Network {
  readonly account: Account
  readonly publisher: Publisher
}

/** The target's account and its network's publisher; a final failure when either is unusable. */
export const networkFor = Effect.fnUntraced(function* (job: LeasedJob) {
  const account = yield* findAccount(job.workspaceId, job.accountId)
  if (Option.isNone(account)) return yield* final("account_not_found")
  if (account.value.status !== "connected") return yield* final("account_needs_reconnection")
  const publisher = (yield* Publishers).get(account.value.platform)
  if (Option.isNone(publisher)) return yield* final("platform_unavailable")
  return { account: account.value, publisher: publisher.value } satisfies Network
})

/** The post's uploads in the post's order, and its cover upload; a final failure when one is gone. */
export const mediaFor = Effect.fnUntraced(function* (post: Post) {
  const coverId = post.cover !== null && "mediaId" in post.cover ? post.cover.mediaId : null
  const ids = coverId === null ? post.mediaIds : [...post.mediaIds, coverId]
  if (ids.length === 0) return { media: [] as ReadonlyArray<Media>, coverMedia: null }
  const found = new Map((yield* (yield* MediaRepo).findByIds(post.workspaceId, ids)).map((m) => [m.id, m]))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) return yield* final("media_not_found", `Uploads are gone: ${missing.join(", ")}.`)
  return { media: post.mediaIds.map((id) => found.get(id)!), coverMedia: coverId === null ? null : found.get(coverId)! }
})

const fromNetwork = (e: PublishError): TargetError => ({
  code: e.code,
  message: e.message,
  retryable: e.retryable
})

/** A network refusal: retryable ones (nothing was posted) try again, others are final. */
const refused = (e: PublishError) =>
  e.retryable
    ? new RetryLater({ error: fromNetwork(e), retryAfterMs: e.retryAfterMs, clearCheckpoint: true })
    : new FinalFailure({ error: fromNetwork(e) })

/** The outcome of the call is not known (timeout, crash inside the call): keep the checkpoint, check next time. */
const unknownOutcome = (message: string) =>
  new RetryLater({ error: targetError("upstream_unavailable", message), retryAfterMs: undefined, clearCheckpoint: false })

export const send = (publisher: Publisher, request: PublishRequest, handle: string | null, options: PipelineOptions) =>
  publisher.publish(request, handle ?? undefined).pipe(
    Effect.timeoutOption(options.publishTimeoutMs),
    Effect.mapError(refused),
    Effect.catchDefect(() => Effect.fail(unknownOutcome("The network call stopped without an answer."))),
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(unknownOutcome(`The network did not answer within ${options.publishTimeoutMs} ms.`)),
      onSome: (published) => Effect.succeed(published)
    }))
  )

/** The publisher's recovery handle for a fresh attempt (null when its network has none). */
export const prepare = (publisher: Publisher, request: PublishRequest) =>
  publisher.prepare === undefined
    ? Effect.succeed(null)
    : publisher.prepare(request).pipe(
        Effect.mapError(refused),
        Effect.catchDefect(() => Effect.fail(new RetryLater({ error: targetError("upstream_unavailable"), retryAfterMs: undefined, clearCheckpoint: true })))
      )

/**
 * Publishes step `step` (0: the post, n: thread reply n) without ever calling blindly twice. If the
 * lease-time checkpoint names this step, an earlier attempt may have reached the network: ask it
 * (`recover`), and only send again when it says nothing arrived. Otherwise prepare, store the
 * checkpoint (before any network call), then send.
 */
export const publishStep = Effect.fnUntraced(function* (
  job: LeasedJob, step: number, request: PublishRequest, publisher: Publisher, options: PipelineOptions
) {
  const earlier = job.checkpoint
  if (earlier !== null && earlier.step === step) {
    const recovery = publisher.recover === undefined
      ? { _tag: "Unknown" as const }
      : yield* publisher.recover(request, earlier.handle).pipe(
          Effect.mapError((e) => (e.retryable ? unknownOutcome(e.message) : new FinalFailure({ error: targetError("publish_outcome_unknown") }))),
          Effect.catchDefect(() => Effect.fail(unknownOutcome("Asking the network about an earlier attempt failed.")))
        )
    if (recovery._tag === "Published") return recovery.published satisfies Published
    if (recovery._tag === "Unknown") return yield* final("publish_outcome_unknown")
    // Nothing arrived: send again, reusing the stored handle so the network can tell it is one post.
    if (earlier.handle !== null) return yield* send(publisher, request, earlier.handle, options)
  }
  const handle = yield* prepare(publisher, request)
  if (!(yield* (yield* PublishingSteps).checkpoint(job, { step, handle }))) return yield* Effect.fail(new LeaseLost())
  return yield* send(publisher, request, handle, options)
})
