import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Acting, NewTweet, TimelinePage, XApi } from "./api.ts"
import { Throttled, type XClient } from "./client.ts"
import { throttledError } from "./errors.ts"
import { decodeHandle, encodeHandle, sending, type XHandle } from "./handle.ts"
import { checkAfterMs, processingFailed, uploadAll } from "./media.ts"
import { findPost } from "./recovery.ts"

/** A lost attempt is looked for among posts made since it started, less this margin for clocks that differ. */
const CLOCK_SKEW_MS = 2 * 60_000
/** Pages of 5 posts read back before the outcome is called unknown. */
const RECOVERY_PAGES = 4
/** Processed media waits at most this long for a rate limit's reset; longer, X may drop the uploads, so they are made again. */
const KEEP_UPLOADS_MS = 60 * 60_000

const urlOf = (request: PublishRequest, id: string) => `https://x.com/${request.account.username}/status/${id}`

/** X's timestamps: seconds, no fraction. */
const xTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")

const actingOf = (request: Pick<PublishRequest, "account" | "credentials">): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The X account has no stored access." }))
    : Effect.succeed({ userId: request.account.externalId, accessToken: request.credentials.accessToken })

const processing = (handle: XHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const tweetOf = (request: PublishRequest, mediaIds: ReadonlyArray<string>): NewTweet => ({
  text: request.content,
  ...(mediaIds.length > 0 ? { media: { media_ids: mediaIds } } : {}),
  ...(request.poll !== null
    ? { poll: { options: request.poll.options, duration_minutes: request.poll.durationMinutes } }
    : {}),
  // Threads and first comments: each a reply to the post before it.
  ...(request.replyTo !== null ? { reply: { in_reply_to_tweet_id: request.replyTo.parentId } } : {})
})

/**
 * Posts to X: text, up to 4 images or one video/GIF, polls, replies. Media X processes is a
 * checkpointed step: `publish` answers Processing with a handle and goes on from it on the next call,
 * never waiting inside. X has no idempotency key, so a create whose answer was lost is looked for
 * among the account's recent posts (`recover`) before anything is sent again.
 */
export const make = (deps: {
  readonly api: XApi
  readonly client: XClient
  readonly blobs: BlobStoreShape
}): Publisher => {
  const post = (request: PublishRequest, acting: Acting, mediaIds: ReadonlyArray<string>) =>
    Effect.flatMap(
      deps.api.createTweet(acting, tweetOf(request, mediaIds)),
      (result): Effect.Effect<PublishOutcome, PublishError> => {
        switch (result._tag) {
          case "Created":
            return Effect.succeed(published(result.id, urlOf(request, result.id)))
          case "Refused":
            return Effect.fail(result.error)
          case "Unknown":
            // X may have made the post: the pipeline keeps the checkpoint and asks `recover` before any new call.
            return Effect.fail(
              PublishError.outcomeUnknown({ message: `The outcome of the X post is unknown: ${result.why}` })
            )
        }
      }
    )

  /** Waits on a throttled call with the uploads kept (a Processing answer keeps the handle; a rate-limit failure would drop it). */
  const keepUploads =
    (handle: XHandle) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      e.reason._tag === "RateLimited" && e.retryAfterMs !== undefined && e.retryAfterMs <= KEEP_UPLOADS_MS
        ? Effect.succeed(processing(handle, e.retryAfterMs))
        : Effect.fail(e)

  const fresh = (request: PublishRequest, acting: Acting, handle: XHandle) =>
    Effect.gen(function* () {
      if (request.media.length === 0) return yield* post(request, acting, [])
      // Uploads are wasted when the post cannot go out now: its window is checked first.
      const wait = yield* deps.client.postingWait(acting.userId)
      if (wait > 0)
        return yield* Effect.fail(
          throttledError(
            new Throttled({
              message: `X's posting limit for this account is used up; Herald waits ${Math.ceil(wait / 1000)} s for its reset.`,
              retryAfterMs: wait
            })
          )
        )
      const uploaded = yield* uploadAll(deps.api, deps.blobs, acting, request.media)
      if (uploaded.processing !== null)
        return processing(
          {
            v: 1,
            stage: "processing",
            startedAt: handle.startedAt,
            mediaIds: uploaded.mediaIds,
            waitingFor: uploaded.processing.id
          },
          uploaded.processing.checkAfterMs
        )
      return yield* post(request, acting, uploaded.mediaIds)
    })

  /** One STATUS poll of the upload X processes: wait more, failed, or ready (then the post goes on the next call). */
  const poll = (acting: Acting, handle: Extract<XHandle, { stage: "processing" }>) =>
    Effect.flatMap(deps.api.status(acting, handle.waitingFor), (info): Effect.Effect<PublishOutcome, PublishError> => {
      if (info !== null && info.state === "failed") return Effect.fail(processingFailed(info))
      if (info !== null && info.state !== "succeeded") return Effect.succeed(processing(handle, checkAfterMs(info)))
      // Ready: the post goes out on the next call, from a checkpoint that says so, so a lost answer to it is looked for.
      return Effect.succeed(
        processing({ v: 1, stage: "ready", startedAt: handle.startedAt, mediaIds: handle.mediaIds }, 0)
      )
    })

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(decodeHandle(handleText), () => sending(now))
      switch (handle.stage) {
        case "sending":
          return yield* fresh(request, acting, handle)
        case "processing":
          return yield* Effect.catch(poll(acting, handle), keepUploads(handle))
        case "ready":
          return yield* Effect.catch(post(request, acting, handle.mediaIds), keepUploads(handle))
      }
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" } satisfies Recovery
      // Nothing is sent to X with a processing handle: it only polls.
      if (handle.value.stage === "processing") return { _tag: "NotPublished" } satisfies Recovery
      const acting = yield* actingOf(request)
      const startTime = xTime(handle.value.startedAt - CLOCK_SKEW_MS)
      let next: string | null = null
      for (let page = 0; page < RECOVERY_PAGES; page++) {
        const found: TimelinePage = yield* deps.api.recentTweets(acting, startTime, next)
        const id = findPost(found, request.content, request.replyTo?.parentId ?? null)
        if (id !== null)
          return { _tag: "Published", published: { externalId: id, url: urlOf(request, id) } } satisfies Recovery
        next = found.meta?.next_token ?? null
        if (next === null) return { _tag: "NotPublished" } satisfies Recovery
      }
      return { _tag: "Unknown" } satisfies Recovery
    })

  return {
    platform: "x",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(sending(now))),
    publish,
    recover,
    // The post, its replies and its first comment are all posts of the account: one call each.
    unpublish: (request) =>
      Effect.flatMap(actingOf(request), (acting) => deps.api.deleteTweet(acting, request.externalId))
  }
}
