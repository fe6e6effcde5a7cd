import { Clock, Effect, Option, Result } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  type AdvisedPost,
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery,
  type UnpublishRequest
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import { formatUtc } from "../../../domain/time.ts"
import { inSegments, readAll } from "../shared/media.ts"
import type { Acting, YouTubeApi } from "./api.ts"
import { decodeHandle, encodeHandle, type YouTubeHandle } from "./handle.ts"
import { metadataOf } from "./metadata.ts"
import type { Quota } from "./quota.ts"
import { shortsAdvice } from "./shorts.ts"

type Uploading = Extract<YouTubeHandle, { stage: "uploading" }>
type Processing = Extract<YouTubeHandle, { stage: "processing" }>

/** A handle kept through YouTube's trouble (down, throttled, out of quota) is given up after this long. */
const KEEP_HANDLE_MS = 24 * 3600_000
/** YouTube may process a long video for a long time: past this, the uploaded video counts as published. */
const PROCESSING_LIMIT_MS = 2 * 3600_000
/** Processing is asked about after 10 s, then less often, at most every 2 minutes. */
const pollDelayMs = (polls: number) => Math.min(120_000, 10_000 * 2 ** polls)
/** Retryable trouble with no delay named: try the same handle again after this. */
const TROUBLE_WAIT_MS = 30_000

export const videoUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`

/** The session is gone with the video incomplete: the only trouble that drops the handle (a new session, from the start). */
const SESSION_EXPIRED = PublishError.unavailable({
  message: "YouTube's upload session expired before the video was complete; Herald starts the upload again."
})

const actingOf = (request: Pick<PublishRequest, "account" | "credentials">): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The YouTube account has no stored access." }))
    : Effect.succeed({ channel: request.account.externalId, accessToken: request.credentials.accessToken })

const processing = (handle: YouTubeHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const videoOf = (request: PublishRequest) => {
  const video = request.media.find((m) => m.type === "video")
  return video === undefined
    ? Effect.fail(PublishError.refused({ code: "media_required", message: "YouTube takes exactly one video." }))
    : Effect.succeed(video)
}

/**
 * Uploads one video to YouTube with the resumable protocol. `prepare` starts the session, and its
 * URI is the handle stored before the first byte: `publish` asks the session where it stands and
 * sends the rest, so a crash or a lost answer resumes (or finds the finished video) and never makes a
 * second video. Once uploaded, the cover becomes the thumbnail and YouTube's processing is polled as
 * Processing outcomes; a duplicate or a refusal YouTube finds while processing fails the post. First
 * comments are comment threads. Every call counts against the project's daily quota (`quota`).
 */
export const make = (deps: {
  readonly api: YouTubeApi
  readonly blobs: BlobStoreShape
  readonly quota: Quota
  readonly chunkBytes: number
}): Publisher => {
  /** Trouble that may pass (YouTube down, throttled, out of quota) keeps the handle: the upload or video is never given up for it. */
  const keepHandle =
    (handle: YouTubeHandle) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        e.retryable && e !== SESSION_EXPIRED && now - handle.startedAt < KEEP_HANDLE_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs ?? TROUBLE_WAIT_MS))
          : Effect.fail(e)
      )

  const uploaded = (request: PublishRequest, handle: Uploading, videoId: string) =>
    Effect.map(Clock.currentTimeMillis, (now) =>
      processing(
        {
          v: 1,
          stage: "processing",
          startedAt: handle.startedAt,
          uploadedAt: now,
          videoId,
          polls: 0,
          thumbnail: request.coverMedia != null ? "pending" : "none"
        },
        0
      )
    )

  /** Asks the session where it stands, then sends the rest in chunks; the video's id once YouTube has it all. */
  const upload = (request: PublishRequest, acting: Acting, handle: Uploading) =>
    Effect.gen(function* () {
      const video = yield* videoOf(request)
      const state = yield* deps.api.probe(acting, handle.session, handle.total)
      if (state._tag === "Expired") return yield* Effect.fail(SESSION_EXPIRED)
      if (state._tag === "Complete") return yield* uploaded(request, handle, state.videoId)
      let videoId: string | null = null
      yield* inSegments(
        deps.blobs,
        video.blobKey,
        deps.chunkBytes,
        (bytes, index) => {
          const start = state.next + index * deps.chunkBytes
          return Effect.flatMap(
            deps.api.putChunk(acting, handle.session, bytes, start, handle.total, video.mimeType),
            (after) => {
              if (after._tag === "Complete") videoId = after.videoId
              else if (after._tag === "Expired" || after.next !== start + bytes.length)
                return Effect.fail(
                  PublishError.unavailable({
                    message: "YouTube holds fewer bytes than were sent; Herald resumes from where it stands.",
                    retryAfterMs: 1000
                  })
                )
              return Effect.void
            }
          )
        },
        state.next
      )
      // Every byte sent and no video yet: ask the session again shortly.
      return videoId === null ? processing(handle, 5000) : yield* uploaded(request, handle, videoId)
    })

  /** The cover as the video's thumbnail; a refusal (an unverified channel, a bad image) leaves YouTube's own frame. */
  const thumbnail = (request: PublishRequest, acting: Acting, handle: Processing) =>
    Effect.gen(function* () {
      const cover = request.coverMedia
      if (handle.thumbnail !== "pending" || cover == null) return handle
      const set = yield* Effect.result(
        Effect.flatMap(readAll(deps.blobs, cover.blobKey), (bytes) =>
          deps.api.setThumbnail(acting, handle.videoId, bytes, cover.mimeType)
        )
      )
      if (Result.isFailure(set) && (set.failure.retryable || set.failure.reason._tag === "Unauthorized"))
        return yield* Effect.fail(set.failure)
      if (Result.isFailure(set))
        yield* Effect.logWarning("YouTube refused the thumbnail; the video keeps its own").pipe(
          Effect.annotateLogs({ video: handle.videoId, why: set.failure.message })
        )
      return { ...handle, thumbnail: "done" as const }
    })

  /** One look at the video: the cover set, then processed (published), refused, or still processing. */
  const poll = (request: PublishRequest, acting: Acting, before: Processing) =>
    Effect.gen(function* () {
      const handle = yield* thumbnail(request, acting, before)
      const found = yield* deps.api.videoState(acting, handle.videoId)
      if (Option.isNone(found))
        return yield* Effect.fail(
          PublishError.refused({
            code: "upstream_rejected",
            message: `YouTube no longer has the video ${handle.videoId} (deleted on YouTube?).`
          })
        )
      const status = found.value.status
      if (status?.uploadStatus === "processed") return published(handle.videoId, videoUrl(handle.videoId))
      if (status?.uploadStatus === "rejected")
        return yield* Effect.fail(
          status.rejectionReason === "duplicate"
            ? PublishError.refused({
                code: "duplicate_content",
                message: "YouTube rejected the video as a duplicate of one already uploaded."
              })
            : PublishError.refused({
                code: "upstream_rejected",
                message: `YouTube rejected the video (${status.rejectionReason ?? "no reason given"}).`
              })
        )
      if (status?.uploadStatus === "failed" || found.value.processingDetails?.processingStatus === "failed")
        return yield* Effect.fail(
          PublishError.refused({
            code: "upstream_rejected",
            message: `YouTube could not process the video (${status?.failureReason ?? "no reason given"}).`
          })
        )
      if ((yield* Clock.currentTimeMillis) - handle.uploadedAt > PROCESSING_LIMIT_MS)
        return published(handle.videoId, videoUrl(handle.videoId))
      return processing({ ...handle, polls: handle.polls + 1 }, pollDelayMs(handle.polls))
    })

  const start = (request: PublishRequest, acting: Acting) =>
    Effect.gen(function* () {
      const video = yield* videoOf(request)
      const session = yield* deps.api.startUpload(acting, metadataOf(request, video), video.sizeBytes, video.mimeType)
      const handle: YouTubeHandle = {
        v: 1,
        stage: "uploading",
        startedAt: yield* Clock.currentTimeMillis,
        session,
        total: video.sizeBytes
      }
      return handle
    })

  const prepare = (request: PublishRequest) =>
    Effect.gen(function* () {
      if (request.replyTo !== null)
        return encodeHandle({ v: 1, stage: "comment", startedAt: yield* Clock.currentTimeMillis })
      return encodeHandle(yield* start(request, yield* actingOf(request)))
    })

  const comment = (request: PublishRequest, acting: Acting, videoId: string) =>
    Effect.flatMap(
      deps.api.comment(acting, videoId, request.content),
      (r): Effect.Effect<PublishOutcome, PublishError> => {
        switch (r._tag) {
          case "Created":
            return Effect.succeed(published(r.id, null))
          case "Refused":
            return Effect.fail(r.error)
          case "Unknown":
            return Effect.fail(
              PublishError.outcomeUnknown({ message: `The outcome of the YouTube comment is unknown: ${r.why}` })
            )
        }
      }
    )

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request)
      if (request.replyTo !== null) return yield* comment(request, acting, request.replyTo.parentId)
      const found = decodeHandle(handleText)
      // No session yet (no prepare): start one and store it before the first byte.
      if (Option.isNone(found) || found.value.stage === "comment") return processing(yield* start(request, acting), 0)
      const handle = found.value
      return yield* (
        handle.stage === "uploading" ? upload(request, acting, handle) : poll(request, acting, handle)
      ).pipe(Effect.catch(keepHandle(handle)))
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const found = decodeHandle(handleText)
      if (Option.isNone(found)) return { _tag: "Unknown" } satisfies Recovery
      if (request.replyTo === null)
        // The session (or the video) is the handle: publish asks it where it stands, so nothing is sent twice.
        return { _tag: "NotPublished" } satisfies Recovery
      const acting = yield* actingOf(request)
      const id = yield* deps.api.findComment(acting, request.replyTo.parentId, request.content)
      return Option.match(id, {
        onNone: (): Recovery => ({ _tag: "NotPublished" }),
        onSome: (externalId): Recovery => ({ _tag: "Published", published: { externalId, url: null } })
      })
    })

  /** Whether YouTube will file the video as a Short; the project's quota as this server counted it today, and whether the account's upload would wait for the reset. */
  const advise = (account: Account, dueAt: number, post: AdvisedPost) =>
    Effect.gen(function* () {
      const use = yield* deps.quota.use
      const now = yield* Clock.currentTimeMillis
      const said = [
        ...shortsAdvice(post.media),
        `YouTube: this server has used ${use.uploads} of ${deps.quota.caps.uploads} uploads and ${use.units} of ${deps.quota.caps.units} quota units today; the quota resets at midnight Pacific time (${formatUtc(use.resetsAt)}).`
      ]
      const wait = yield* deps.quota.waitFor("upload", account.externalId)
      if (wait > 0 && now + wait > dueAt)
        said.push(
          `YouTube's daily uploads are used up for ${account.username}: the video waits until ${formatUtc(now + wait)}.`
        )
      return said
    })

  // The video's comments go with it, and the video is removed last: a first comment needs no call (nor its 50 units).
  const unpublish = (request: UnpublishRequest) =>
    request.kind === "comment"
      ? Effect.void
      : Effect.flatMap(actingOf(request), (acting) => deps.api.deleteVideo(acting, request.externalId))

  return { platform: "youtube", prepare, publish, recover, advise, unpublish }
}
