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
import type { Media } from "../../../domain/media.ts"
import { formatUtc } from "../../../domain/time.ts"
import { createdId } from "../meta/graph.ts"
import { fetchableUrl, readAll } from "../shared/media.ts"
import { MAX_PROCESSING_MS } from "../meta/containers.ts"
import { findByText } from "../meta/posts.ts"
import type { Acting, FacebookApi, PagePost, VideoPhase, VideoStatus } from "./api.ts"
import { decodeHandle, encodeHandle, type FacebookHandle, sending } from "./handle.ts"
import type { ReelLedgerShape } from "./reelLedger.ts"
import { makeReelQuota } from "./reelQuota.ts"
import { failedPhase, finishReceived, isLive } from "./videoStatus.ts"

const FACEBOOK = "https://www.facebook.com"
const MAX_POLL_WAIT_MS = 60_000
/** Trouble reaching Meta while a video is on its way keeps its handle this long (a throttled call waits as Meta says); then it fails. */
const KEEP_HANDLE_MS = 6 * 60 * 60_000
const TROUBLE_WAIT_MS = 60_000

type Reel = Extract<FacebookHandle, { stage: "reel" }>
type Processing = Extract<FacebookHandle, { stage: "video" }>

const actingOf = (request: Pick<PublishRequest, "account" | "credentials">): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.revoked({ message: "The Facebook Page has no stored access." }))
    : Effect.succeed({ pageId: request.account.externalId, token: request.credentials.accessToken })

/** The first web link in a text, without the punctuation that ends a sentence: Meta builds its preview card. */
export const firstLink = (text: string): string | null => {
  const found = /\bhttps?:\/\/[^\s<>"]+/i.exec(text)?.[0]
  return found === undefined ? null : found.replace(/[.,;:!?)\]'"]+$/, "")
}

/** Meta gives video permalinks as paths ("/{page}/videos/{id}/"). */
const absolute = (url: string | undefined) =>
  url === undefined ? null : url.startsWith("/") ? `${FACEBOOK}${url}` : url
const postUrl = (id: string) => `${FACEBOOK}/${id}`
const videoUrl = (a: Acting, videoId: string, status?: VideoStatus) =>
  absolute(status?.permalink_url) ?? `${FACEBOOK}/${a.pageId}/videos/${videoId}`
const reelUrl = (videoId: string) => `${FACEBOOK}/reel/${videoId}`

/** The post's one video goes up as a reel when the post asks for it (facebook.reel). */
const reelVideo = (request: PublishRequest): Media | null =>
  request.options?.facebook?.reel === true ? (request.media.find((m) => m.type === "video") ?? null) : null

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

  const found = (item: PagePost | null, url: (item: PagePost) => string | null): Recovery =>
    item === null ? { _tag: "NotPublished" } : { _tag: "Published", published: { externalId: item.id, url: url(item) } }

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" } satisfies Recovery
      // Nothing is sent with a video handle: it only polls.
      if (handle.value.stage === "video") return { _tag: "NotPublished" } satisfies Recovery
      const since = handle.value.startedAt
      const a = yield* actingOf(request)
      if (handle.value.stage === "reel") {
        // The reel is its video id: live, or publish goes on from where its status says it stands (no second upload or finish).
        const status = yield* api.videoStatus(a, handle.value.videoId)
        return isLive(status, true)
          ? ({
              _tag: "Published",
              published: { externalId: handle.value.videoId, url: reelUrl(handle.value.videoId) }
            } satisfies Recovery)
          : ({ _tag: "NotPublished" } satisfies Recovery)
      }
      if (request.replyTo !== null)
        return found(
          findByText(
            yield* api.comments(a, request.replyTo.parentId),
            request.content,
            since,
            (c) => c.message,
            (c) => c.created_time
          ),
          () => null
        )
      // A reel's finish is only ever sent from a `reel` handle: from `sending`, none can be live.
      if (reelVideo(request) !== null) return { _tag: "NotPublished" } satisfies Recovery
      if (request.media.some((m) => m.type === "video"))
        return found(
          findByText(
            yield* api.videos(a),
            request.content,
            since,
            (v) => v.description,
            (v) => v.created_time
          ),
          (v) => videoUrl(a, v.id, { permalink_url: v.permalink_url })
        )
      return found(
        findByText(
          yield* api.publishedPosts(a),
          request.content,
          since,
          (p) => p.message,
          (p) => p.created_time
        ),
        (p) => p.permalink_url ?? postUrl(p.id)
      )
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
