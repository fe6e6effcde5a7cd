import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest
} from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { formatUtc } from "../../../domain/time.ts"
import { createdId } from "../meta/graph.ts"
import { fetchableUrl, readAll } from "../shared/media.ts"
import { MAX_PROCESSING_MS } from "../meta/containers.ts"
import type { Acting, FacebookApi, VideoPhase } from "./api.ts"
import { decodeHandle, encodeHandle, type FacebookHandle, sending } from "./handle.ts"
import type { ReelLedgerShape } from "./reelLedger.ts"
import { actingOf, postUrl, reelUrl, reelVideo, videoUrl } from "./pageRequest.ts"
import { makeReelQuota } from "./reelQuota.ts"
import { makeRecover } from "./recover.ts"
import { failedPhase, finishReceived, isLive } from "./videoStatus.ts"

const MAX_POLL_WAIT_MS = 60_000
/** Trouble reaching Meta while a video is on its way keeps its handle this long (a throttled call waits as Meta says); then it fails. */
const KEEP_HANDLE_MS = 6 * 60 * 60_000
const TROUBLE_WAIT_MS = 60_000

type Reel = Extract<FacebookHandle, { stage: "reel" }>
type Processing = Extract<FacebookHandle, { stage: "video" }>

/** The first web link in a text, without the punctuation that ends a sentence: Meta builds its preview card. */
export const firstLink = (text: string): string | null => {
  const found = /\bhttps?:\/\/[^\s<>"]+/i.exec(text)?.[0]
  return found === undefined ? null : found.replace(/[.,;:!?)\]'"]+$/, "")
}

const processing = (handle: FacebookHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

/**
 * Publishes to a Facebook Page as the Page (its own token): text, a link (its preview card), up to 10
 * photos (uploaded unpublished, then attached to one post), one video (Meta fetches it; cover image
 * as `thumb`), or one reel (facebook.reel: an upload session, Meta fetching the file from the
 * `file_url` header, then finish), polled until Meta finished processing it, one poll per call.
 * First comments are comments on the post. Facebook has no idempotency key: a create whose answer
 * was lost is looked for among the Page's recent posts, videos or the post's comments before
 * anything is sent again; a reel is found through its stored video id. At most 30 reels a Page in
 * 24 hours (`reels`): the next one waits, as a rate limit.
 */
export const make = (deps: {
  readonly api: FacebookApi
  readonly blobs: BlobStoreShape
  readonly reels: ReelLedgerShape
}): Publisher => {
  const { api, blobs } = deps
  const reels = makeReelQuota(deps.reels)
  const recover = makeRecover(api)

  const post = (a: Acting, request: PublishRequest) =>
    Effect.gen(function* () {
      const images = request.media.filter((m) => m.type === "image")
      const params: Record<string, string> = { message: request.content }
      if (images.length > 0) {
        const ids = yield* Effect.forEach(
          images,
          (m) => Effect.flatMap(fetchableUrl(blobs, m.blobKey), (url) => api.unpublishedPhoto(a, url)),
          { concurrency: 4 }
        )
        params.attached_media = JSON.stringify(ids.map((id) => ({ media_fbid: id })))
      } else {
        const link = firstLink(request.content)
        if (link !== null) params.link = link
      }
      const id = yield* Effect.flatMap(api.feed(a, params), createdId("Facebook", "post"))
      return published(id, postUrl(id))
    })

  const video = (a: Acting, request: PublishRequest, startedAt: number) =>
    Effect.gen(function* () {
      const form = new FormData()
      form.set("file_url", yield* fetchableUrl(blobs, request.media[0]!.blobKey))
      form.set("description", request.content)
      form.set("published", "true")
      // A cover image goes with the video as `thumb`; Facebook takes no frame offset.
      if (request.coverMedia)
        form.set(
          "thumb",
          new Blob([yield* readAll(blobs, request.coverMedia.blobKey)], { type: request.coverMedia.mimeType }),
          "cover"
        )
      const videoId = yield* Effect.flatMap(api.video(a, form), createdId("Facebook", "video"))
      return processing({ v: 1, stage: "video", startedAt, videoId, polls: 0 }, 10_000)
    })

  /** A reel's upload session, stored (Processing at once) before anything is uploaded; the Page's 30 a day wait as a rate limit. */
  const reelStart = (a: Acting, startedAt: number) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const free = yield* reels.freeAt(a.pageId, now)
      if (free > now)
        return yield* Effect.fail(
          PublishError.rateLimited({
            message: `Facebook Pages take ${reels.perDay} reels in 24 hours and this Page has had them; the reel waits until ${formatUtc(free)}.`,
            retryAfterMs: free - now
          })
        )
      const session = yield* api.reelStart(a)
      return processing({ v: 1, stage: "reel", startedAt, videoId: session.videoId, uploadUrl: session.uploadUrl }, 0)
    })

  /**
   * Uploads and finishes a started reel, asking its status first: an upload Meta has is not sent
   * again, nor a finish it received (the video id is the reel, so a finish can only ever publish this one).
   */
  const reelFinish = (a: Acting, request: PublishRequest, video: Media, handle: Reel) =>
    Effect.gen(function* () {
      const status = yield* api.videoStatus(a, handle.videoId)
      const failed = failedPhase(status)
      if (failed !== null) return yield* Effect.fail(processingFailed("reel", failed))
      if (!finishReceived(status)) {
        if (status.status?.uploading_phase?.status !== "complete")
          yield* api.reelUpload(a, handle.uploadUrl, yield* fetchableUrl(blobs, video.blobKey))
        yield* Effect.flatMap(api.reelFinish(a, handle.videoId, request.content), createdId("Facebook", "reel"))
      }
      yield* reels.record(a.pageId, handle.videoId, yield* Clock.currentTimeMillis)
      return processing(
        { v: 1, stage: "video", startedAt: handle.startedAt, videoId: handle.videoId, polls: 0, reel: true },
        10_000
      )
    })

  /** One poll of a video (or reel) Meta processes: live, failed, or wait (twice as long each time, a minute at most). */
  const poll = (a: Acting, handle: Processing) =>
    Effect.gen(function* () {
      const status = yield* api.videoStatus(a, handle.videoId)
      const reel = handle.reel === true
      if (isLive(status, reel))
        return published(handle.videoId, reel ? reelUrl(handle.videoId) : videoUrl(a, handle.videoId, status))
      const failed = failedPhase(status)
      if (failed !== null) return yield* Effect.fail(processingFailed(reel ? "reel" : "video", failed))
      // The video exists on the Page: starting over would post it twice, so a person checks.
      if ((yield* Clock.currentTimeMillis) - handle.startedAt > MAX_PROCESSING_MS)
        return yield* Effect.fail(
          PublishError.refused({
            code: "publish_outcome_unknown",
            message: `Facebook has not finished processing ${reel ? "reel" : "video"} ${handle.videoId} after an hour; check the Page.`
          })
        )
      return processing(
        { ...handle, polls: handle.polls + 1 },
        Math.min(MAX_POLL_WAIT_MS, 10_000 * 2 ** Math.min(handle.polls + 1, 6))
      )
    })

  /** Trouble reaching Meta (or its throttling) while a video is on its way keeps the handle and waits, so the video is never made again. */
  const keepHandle =
    (handle: Reel | Processing) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        e.retryable && now - handle.startedAt < KEEP_HANDLE_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs ?? TROUBLE_WAIT_MS))
          : Effect.fail(e)
      )

  const comment = (a: Acting, request: PublishRequest) =>
    Effect.map(
      Effect.flatMap(api.comment(a, request.replyTo!.parentId, request.content), createdId("Facebook", "comment")),
      (id) => published(id, null)
    )

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const a = yield* actingOf(request)
      const handle = Option.getOrElse(decodeHandle(handleText), () => sending(0))
      if (handle.stage === "video") return yield* poll(a, handle).pipe(Effect.catch(keepHandle(handle)))
      if (request.replyTo !== null) return yield* comment(a, request)
      const reel = reelVideo(request)
      if (handle.stage === "reel")
        return yield* (reel === null ? Effect.fail(notAReel()) : reelFinish(a, request, reel, handle)).pipe(
          Effect.catch(keepHandle(handle))
        )
      const startedAt = handle.startedAt > 0 ? handle.startedAt : yield* Clock.currentTimeMillis
      if (reel !== null) return yield* reelStart(a, startedAt)
      return yield* request.media.some((m) => m.type === "video") ? video(a, request, startedAt) : post(a, request)
    })

  /** For a reel: the Page's reels as this server counted them, and whether one due at `dueAt` would wait for the 24 hours to move on. */
  const advise: NonNullable<Publisher["advise"]> = (account, dueAt, post) =>
    Effect.gen(function* () {
      if (post.options.facebook?.reel !== true || !post.media.some((m) => m.type === "video")) return []
      const now = yield* Clock.currentTimeMillis
      const page = account.externalId
      const said = [
        `Facebook: this server published ${yield* reels.used(page, now)} of the ${reels.perDay} reels a Page may publish in 24 hours to ${account.username}.`
      ]
      const free = yield* reels.freeAt(page, Math.max(now, dueAt))
      if (free > Math.max(now, dueAt))
        said.push(
          `Facebook's ${reels.perDay} reels a day are used up for ${account.username}: the reel waits until ${formatUtc(free)}.`
        )
      return said
    })

  return {
    platform: "facebook",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(sending(now))),
    publish,
    recover,
    advise,
    // A post, a video, a reel and a comment are each one Graph object: DELETE /{id}.
    unpublish: (request) => Effect.flatMap(actingOf(request), (a) => api.remove(a, request.externalId))
  }
}

/** Meta could not take the video or reel, in its own words when it gave them. */
const processingFailed = (what: "video" | "reel", phase: VideoPhase) =>
  PublishError.refused({
    code: "upstream_rejected",
    message: `Facebook could not process the ${what}: ${phase.error?.message ?? "processing failed"}`
  })

/** A reel handle for a post that is no longer a reel (its options changed): a person decides, nothing is sent. */
const notAReel = () =>
  PublishError.refused({
    code: "publish_outcome_unknown",
    message: "This post's reel upload was started, but the post no longer asks for a reel; check the Page."
  })
