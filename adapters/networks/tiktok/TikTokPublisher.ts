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
import { fetchableUrl, inParts } from "../shared/media.ts"
import type { Acting, TikTokApi } from "./api.ts"
import { chunkPlan } from "./chunks.ts"
import { failedError } from "./errors.ts"
import { decodeHandle, encodeHandle, type TikTokHandle } from "./handle.ts"
import { postInfoOf } from "./settings.ts"

type Uploading = Extract<TikTokHandle, { stage: "uploading" }>
type Processing = Extract<TikTokHandle, { stage: "processing" }>

/** A handle kept through TikTok's trouble (down, throttled) is given up after this long. */
const KEEP_HANDLE_MS = 24 * 3600_000
const TROUBLE_WAIT_MS = 30_000
/** A post's id shows once TikTok's moderation is done (never for a private one); past this, its publish_id names it. */
const MODERATION_WAIT_MS = 2 * 3600_000
const notPrivate = (postInfo: { readonly privacy_level: string }) => postInfo.privacy_level !== "SELF_ONLY"
/** Status is asked after 5 s, then less often, at most every minute (TikTok allows 30 a minute). */
const pollDelayMs = (polls: number) => Math.min(60_000, 5000 * 2 ** polls)

export const postUrl = (username: string, id: string, photo: boolean) =>
  `https://www.tiktok.com/@${username}/${photo ? "photo" : "video"}/${id}`

const actingOf = (request: PublishRequest): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The TikTok account has no stored access." }))
    : Effect.succeed({ openId: request.account.externalId, accessToken: request.credentials.accessToken })

const processing = (handle: TikTokHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

/**
 * Posts to TikTok (Direct Post): one video by file upload in chunks, or up to 35 photos TikTok
 * fetches from their URLs; or, with tiktok.draft, uploads one video to the creator's inbox (Upload),
 * done once TikTok says SEND_TO_USER_INBOX (published under the publish_id, with no URL). The creator's settings are read before every post and the post made to
 * fit them (or refused: tiktok_privacy_conflict). The publish_id becomes the checkpoint before any
 * byte is sent; uploading resumes from where TikTok stands and the publishing is polled as
 * Processing outcomes, so a crash or a lost answer is recovered through the publish_id and nothing
 * is posted twice. TikTok takes no comments by API: no first comments.
 */
export const make = (deps: {
  readonly api: TikTokApi
  readonly blobs: BlobStoreShape
  readonly chunkBytes: number
}): Publisher => {
  const keepHandle =
    (handle: TikTokHandle) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        e.retryable && now - handle.startedAt < KEEP_HANDLE_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs ?? TROUBLE_WAIT_MS))
          : Effect.fail(e)
      )

  /** A draft: the video's upload to the creator's inbox starts with no settings (the creator sets them in the app). */
  const startDraft = (request: PublishRequest, acting: Acting, startedAt: number) =>
    Effect.gen(function* () {
      const video = request.media.length === 1 ? request.media[0]! : undefined
      if (video?.type !== "video")
        return yield* Effect.fail(
          PublishError.refused({ code: "validation_failed", message: "A TikTok draft is one video." })
        )
      const plan = chunkPlan(video.sizeBytes, deps.chunkBytes)
      const init = yield* deps.api.initInboxVideo(acting, {
        video_size: video.sizeBytes,
        chunk_size: plan.chunkSize,
        total_chunk_count: plan.count
      })
      return processing(
        {
          v: 1,
          stage: "uploading",
          startedAt,
          publishId: init.publish_id,
          uploadUrl: init.upload_url,
          username: request.account.username,
          chunkSize: plan.chunkSize,
          sizes: plan.sizes,
          draft: true
        },
        0
      )
    })

  /** Reads the creator's settings and starts the post: a video's publish_id and upload URL are stored before any byte; photos are fetched by TikTok. */
  const start = (request: PublishRequest, acting: Acting, startedAt: number) =>
    Effect.gen(function* () {
      if (request.options?.tiktok?.draft === true) return yield* startDraft(request, acting, startedAt)
      const info = yield* deps.api.creatorInfo(acting)
      const video = request.media.find((m) => m.type === "video")
      if (video !== undefined) {
        if (video.durationMs !== null && video.durationMs > info.max_video_post_duration_sec * 1000)
          return yield* Effect.fail(
            PublishError.refused({
              code: "upstream_rejected",
              message: `TikTok lets @${info.creator_username} post videos of up to ${info.max_video_post_duration_sec} s; this one is ${Math.ceil(video.durationMs / 1000)} s.`
            })
          )
        const postInfo = yield* postInfoOf(request, info, false)
        const plan = chunkPlan(video.sizeBytes, deps.chunkBytes)
        const init = yield* deps.api.initVideo(acting, postInfo, {
          video_size: video.sizeBytes,
          chunk_size: plan.chunkSize,
          total_chunk_count: plan.count
        })
        return processing(
          {
            v: 1,
            stage: "uploading",
            startedAt,
            publishId: init.publish_id,
            uploadUrl: init.upload_url,
            username: info.creator_username,
            chunkSize: plan.chunkSize,
            sizes: plan.sizes,
            public: notPrivate(postInfo)
          },
          0
        )
      }
      if (request.media.length === 0)
        return yield* Effect.fail(
          PublishError.refused({ code: "media_required", message: "TikTok posts need a video or photos." })
        )
      const postInfo = yield* postInfoOf(request, info, true)
      // Signed links valid for an hour: long enough for TikTok to fetch, not a standing public URL.
      const urls = yield* Effect.forEach(request.media, (m) => fetchableUrl(deps.blobs, m.blobKey))
      const publishId = yield* deps.api.initPhotos(acting, postInfo, urls)
      return processing(
        {
          v: 1,
          stage: "processing",
          startedAt,
          publishId,
          username: info.creator_username,
          photo: true,
          polls: 0,
          public: notPrivate(postInfo)
        },
        pollDelayMs(0)
      )
    })

  /** Sends the video's chunks from where TikTok stands (uploaded_bytes), then polls its publishing. */
  const upload = (request: PublishRequest, acting: Acting, handle: Uploading) =>
    Effect.gen(function* () {
      const video = request.media.find((m) => m.type === "video")
      if (video === undefined)
        return yield* Effect.fail(
          PublishError.refused({ code: "media_required", message: "The TikTok post's video is gone from the post." })
        )
      const status = yield* deps.api.status(acting, handle.publishId)
      const toProcessing = processing(
        {
          v: 1,
          stage: "processing",
          startedAt: handle.startedAt,
          publishId: handle.publishId,
          username: handle.username,
          photo: false,
          polls: 0,
          public: handle.public,
          ...(handle.draft === true ? { draft: true } : {})
        },
        pollDelayMs(0)
      )
      if (status.status === "FAILED")
        // The upload never completed (its URL expired, or TikTok gave up): nothing was posted, start again with a new publish_id.
        return yield* Effect.fail(
          PublishError.unavailable({
            message: `TikTok dropped the unfinished upload (${status.fail_reason ?? "no reason given"}); Herald starts it again.`,
            retryAfterMs: 1000
          })
        )
      if (status.status !== "PROCESSING_UPLOAD") return toProcessing
      // Whole chunks TikTok holds are not sent again.
      const done = Math.min(handle.sizes.length - 1, Math.floor((status.uploaded_bytes ?? 0) / handle.chunkSize))
      const from = done * handle.chunkSize
      yield* inParts(
        deps.blobs,
        video.blobKey,
        handle.sizes.slice(done),
        (bytes, i) =>
          deps.api.putChunk(handle.uploadUrl, bytes, from + i * handle.chunkSize, video.sizeBytes, video.mimeType),
        from
      )
      return toProcessing
    })

  /** One look at the post: published (with its id once TikTok shows one), failed, or still going. */
  const poll = (acting: Acting, handle: Processing) =>
    Effect.gen(function* () {
      const status = yield* deps.api.status(acting, handle.publishId)
      const again = processing({ ...handle, polls: handle.polls + 1 }, pollDelayMs(handle.polls + 1))
      if (status.status === "FAILED") return yield* Effect.fail(failedError(status.fail_reason))
      // A draft is Herald's to deliver, not to post: in the creator's inbox it is done, under its publish_id.
      if (handle.draft === true && status.status === "SEND_TO_USER_INBOX") return published(handle.publishId, null)
      if (status.status !== "PUBLISH_COMPLETE") return again
      if (status.postId !== null) return published(status.postId, postUrl(handle.username, status.postId, handle.photo))
      // A post under moderation has no id yet: wait for it rather than record a link-less post.
      const now = yield* Clock.currentTimeMillis
      if (handle.public === true && now - handle.startedAt < MODERATION_WAIT_MS) return again
      // A private post never gets a public id (nor one past moderation's wait): the publish_id names it.
      return published(handle.publishId, null)
    })

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      if (request.replyTo !== null)
        return yield* Effect.fail(
          PublishError.refused({
            code: "first_comment_unsupported",
            message: "TikTok takes no comments through its API."
          })
        )
      const acting = yield* actingOf(request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(
        decodeHandle(handleText),
        (): TikTokHandle => ({ v: 1, stage: "init", startedAt: now })
      )
      switch (handle.stage) {
        case "init":
          return yield* start(request, acting, handle.startedAt)
        case "uploading":
          return yield* Effect.catch(upload(request, acting, handle), keepHandle(handle))
        case "processing":
          return yield* Effect.catch(poll(acting, handle), keepHandle(handle))
      }
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.sync((): Recovery => {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" }
      // A photo init that was sent may have started the post (TikTok fetches at once) and its publish_id was lost: a person decides.
      if (handle.value.stage === "init" && !request.media.some((m) => m.type === "video")) return { _tag: "Unknown" }
      // Otherwise publish goes on through the publish_id (or starts: a video init without bytes posts nothing).
      return { _tag: "NotPublished" }
    })

  return {
    platform: "tiktok",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle({ v: 1, stage: "init", startedAt: now })),
    publish,
    recover
  }
}
