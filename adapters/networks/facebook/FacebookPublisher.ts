import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import { published, PublishError, type Publisher, type PublishOutcome, type PublishRequest, type Recovery } from "../../../application/ports/Publishers.ts"
import { createdId } from "../shared/metaGraph.ts"
import { fetchableUrl, readAll } from "../shared/media.ts"
import { MAX_PROCESSING_MS } from "../shared/metaContainers.ts"
import { findByText } from "../shared/metaPosts.ts"
import type { Acting, FacebookApi, PagePost, VideoStatus } from "./api.ts"
import { decodeHandle, encodeHandle, type FacebookHandle, sending } from "./handle.ts"

const FACEBOOK = "https://www.facebook.com"
const MAX_POLL_WAIT_MS = 60_000

const actingOf = (request: PublishRequest): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(new PublishError({ code: "account_needs_reconnection", message: "The Facebook Page has no stored access.", retryable: false, revoked: true }))
    : Effect.succeed({ pageId: request.account.externalId, token: request.credentials.accessToken })

/** The first web link in a text, without the punctuation that ends a sentence: Meta builds its preview card. */
export const firstLink = (text: string): string | null => {
  const found = /\bhttps?:\/\/[^\s<>"]+/i.exec(text)?.[0]
  return found === undefined ? null : found.replace(/[.,;:!?)\]'"]+$/, "")
}

/** Meta gives video permalinks as paths ("/{page}/videos/{id}/"). */
const absolute = (url: string | undefined) => (url === undefined ? null : url.startsWith("/") ? `${FACEBOOK}${url}` : url)
const postUrl = (id: string) => `${FACEBOOK}/${id}`
const videoUrl = (a: Acting, videoId: string, status?: VideoStatus) => absolute(status?.permalink_url) ?? `${FACEBOOK}/${a.pageId}/videos/${videoId}`

const processing = (handle: FacebookHandle, checkAfterMs: number): PublishOutcome => ({ _tag: "Processing", handle: encodeHandle(handle), checkAfterMs })

/**
 * Publishes to a Facebook Page as the Page (its own token): text, a link (its preview card), up to 10
 * photos (uploaded unpublished, then attached to one post), or one video (Meta fetches it; cover
 * image as `thumb`), polled until Meta finished processing it, one poll per call. First comments
 * are comments on the post. Facebook has no idempotency key: a create whose answer was lost is
 * looked for among the Page's recent posts, videos or the post's comments before anything is sent again.
 */
export const make = (deps: { readonly api: FacebookApi; readonly blobs: BlobStoreShape }): Publisher => {
  const { api, blobs } = deps

  const post = (a: Acting, request: PublishRequest) =>
    Effect.gen(function* () {
      const images = request.media.filter((m) => m.type === "image")
      const params: Record<string, string> = { message: request.content }
      if (images.length > 0) {
        const ids = yield* Effect.forEach(images, (m) => Effect.flatMap(fetchableUrl(blobs, m.blobKey), (url) => api.unpublishedPhoto(a, url)), { concurrency: 4 })
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
      if (request.coverMedia) form.set("thumb", new Blob([yield* readAll(blobs, request.coverMedia.blobKey)], { type: request.coverMedia.mimeType }), "cover")
      const videoId = yield* Effect.flatMap(api.video(a, form), createdId("Facebook", "video"))
      return processing({ v: 1, stage: "video", startedAt, videoId, polls: 0 }, 10_000)
    })

  /** One poll of a video Meta processes: live, failed, or wait (twice as long each time, a minute at most). */
  const poll = (a: Acting, handle: Extract<FacebookHandle, { stage: "video" }>) =>
    Effect.gen(function* () {
      const status = yield* api.videoStatus(a, handle.videoId)
      const state = status.status?.video_status
      if (state === "ready") return published(handle.videoId, videoUrl(a, handle.videoId, status))
      if (state === "error")
        return yield* Effect.fail(
          new PublishError({
            code: "upstream_rejected",
            message: `Facebook could not process the video: ${status.status?.processing_phase?.error?.message ?? "processing failed"}`,
            retryable: false
          })
        )
      // The video exists on the Page: starting over would post it twice, so a person checks.
      if ((yield* Clock.currentTimeMillis) - handle.startedAt > MAX_PROCESSING_MS)
        return yield* Effect.fail(
          new PublishError({
            code: "publish_outcome_unknown",
            message: `Facebook has not finished processing video ${handle.videoId} after an hour; check the Page.`,
            retryable: false
          })
        )
      return processing({ ...handle, polls: handle.polls + 1 }, Math.min(MAX_POLL_WAIT_MS, 10_000 * 2 ** Math.min(handle.polls + 1, 6)))
    })

  const comment = (a: Acting, request: PublishRequest) =>
    Effect.map(Effect.flatMap(api.comment(a, request.replyTo!.parentId, request.content), createdId("Facebook", "comment")), (id) => published(id, null))

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const a = yield* actingOf(request)
      const handle = Option.getOrElse(decodeHandle(handleText), () => sending(0))
      if (handle.stage === "video") return yield* poll(a, handle)
      if (request.replyTo !== null) return yield* comment(a, request)
      const startedAt = handle.startedAt > 0 ? handle.startedAt : yield* Clock.currentTimeMillis
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

  return {
    platform: "facebook",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(sending(now))),
    publish,
    recover
  }
}
