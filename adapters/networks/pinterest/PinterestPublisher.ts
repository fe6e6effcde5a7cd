import { openAsBlob } from "node:fs"
import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import { readAll } from "../shared/media.ts"
import type { Acting, CreateResult, PinterestApi } from "./api.ts"
import { decodeHandle, encodeHandle, type PinterestHandle } from "./handle.ts"

type Processing = Extract<PinterestHandle, { stage: "processing" }>

const CLOCK_SKEW_MS = 2 * 60_000
const KEEP_HANDLE_MS = 24 * 3600_000
const TROUBLE_WAIT_MS = 30_000
/** Video processing is asked about after 5 s, then less often, at most every minute. */
const pollDelayMs = (polls: number) => Math.min(60_000, 5000 * 2 ** polls)

export const pinUrl = (id: string) => `https://www.pinterest.com/pin/${id}/`

const actingOf = (account: Account, credentials: NetworkCredentials | null): Effect.Effect<Acting, PublishError> =>
  credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The Pinterest account has no stored access." }))
    : Effect.succeed({ user: account.externalId, accessToken: credentials.accessToken })

const processing = (handle: PinterestHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

/**
 * Pins to Pinterest: one image, a carousel of 2-5 images (sent in the pin itself, base64), or one
 * video with a cover (uploaded, processed as checkpointed Processing outcomes, then pinned). The board
 * is the post's `pinterest.boardId`, else the account's first board; the text is the description,
 * `pinterest.title` and `pinterest.link` the pin's. Pinterest has no idempotency key: a pin whose
 * answer was lost is looked for on its board among pins made since the attempt started.
 */
export const make = (deps: { readonly api: PinterestApi; readonly blobs: BlobStoreShape }): Publisher => {
  const keepHandle =
    (handle: PinterestHandle) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        e.retryable && now - handle.startedAt < KEEP_HANDLE_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs ?? TROUBLE_WAIT_MS))
          : Effect.fail(e)
      )

  /** The post's board, or the account's first one. */
  const boardOf = (request: PublishRequest, acting: Acting) =>
    Effect.gen(function* () {
      const chosen = request.options?.pinterest?.boardId
      if (chosen !== undefined) return chosen
      const boards = yield* deps.api.boards(acting)
      if (boards.length === 0)
        return yield* Effect.fail(
          PublishError.refused({
            code: "upstream_rejected",
            message: "The Pinterest account has no board: create one on Pinterest, or set pinterest.boardId."
          })
        )
      return boards[0].id
    })

  const pinOf = (request: PublishRequest, boardId: string, mediaSource: unknown) => {
    const options = request.options?.pinterest
    return {
      board_id: boardId,
      ...(options?.title === undefined ? {} : { title: options.title }),
      ...(request.content.trim() === "" ? {} : { description: request.content }),
      ...(options?.link === undefined ? {} : { link: options.link }),
      media_source: mediaSource
    }
  }

  const settle = (result: CreateResult): Effect.Effect<PublishOutcome, PublishError> => {
    switch (result._tag) {
      case "Created":
        return Effect.succeed(published(result.id, pinUrl(result.id)))
      case "Refused":
        return Effect.fail(result.error)
      case "Unknown":
        return Effect.fail(
          PublishError.outcomeUnknown({ message: `The outcome of the Pinterest pin is unknown: ${result.why}` })
        )
    }
  }

  const imagesSource = (images: ReadonlyArray<Media>) =>
    Effect.gen(function* () {
      const items = yield* Effect.forEach(images, (m) =>
        Effect.map(readAll(deps.blobs, m.blobKey), (bytes) => ({ content_type: m.mimeType, data: base64(bytes) }))
      )
      return items.length === 1
        ? { source_type: "image_base64", ...items[0] }
        : { source_type: "multiple_image_base64", items }
    })

  /** A video as a Blob: the file itself where the store keeps files, else its bytes. */
  const videoFile = (video: Media) =>
    Option.match(deps.blobs.localPath(video.blobKey), {
      onSome: (path) => Effect.promise(() => openAsBlob(path, { type: video.mimeType })),
      onNone: () =>
        Effect.map(readAll(deps.blobs, video.blobKey), (bytes) => new Blob([bytes], { type: video.mimeType }))
    })

  const start = (request: PublishRequest, acting: Acting, startedAt: number) =>
    Effect.gen(function* () {
      const boardId = yield* boardOf(request, acting)
      const video = request.media.find((m) => m.type === "video")
      if (video === undefined)
        return yield* Effect.flatMap(
          deps.api.createPin(acting, pinOf(request, boardId, yield* imagesSource(request.media))),
          settle
        )
      const upload = yield* deps.api.registerVideo(acting)
      yield* deps.api.uploadVideo(upload.upload_url, upload.upload_parameters, yield* videoFile(video))
      return processing(
        { v: 1, stage: "processing", startedAt, boardId, mediaId: upload.media_id, polls: 0 },
        pollDelayMs(0)
      )
    })

  const poll = (acting: Acting, handle: Processing) =>
    Effect.flatMap(
      deps.api.mediaStatus(acting, handle.mediaId),
      (status): Effect.Effect<PublishOutcome, PublishError> => {
        if (status === "succeeded")
          return Effect.succeed(
            processing(
              { v: 1, stage: "ready", startedAt: handle.startedAt, boardId: handle.boardId, mediaId: handle.mediaId },
              0
            )
          )
        if (status === "failed")
          return Effect.fail(
            PublishError.refused({ code: "upstream_rejected", message: "Pinterest could not process the video." })
          )
        return Effect.succeed(processing({ ...handle, polls: handle.polls + 1 }, pollDelayMs(handle.polls + 1)))
      }
    )

  /** The video's cover: the cover image, else the frame at the cover offset, else the first frame. */
  const videoSource = (request: PublishRequest, mediaId: string) =>
    Effect.gen(function* () {
      const cover = request.coverMedia
      if (cover != null)
        return {
          source_type: "video_id",
          media_id: mediaId,
          cover_image_content_type: cover.mimeType,
          cover_image_data: base64(yield* readAll(deps.blobs, cover.blobKey))
        }
      const offset = request.cover !== null && "offsetMs" in request.cover ? request.cover.offsetMs : 0
      return { source_type: "video_id", media_id: mediaId, cover_image_key_frame_time: offset }
    })

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      if (request.replyTo !== null)
        return yield* Effect.fail(
          PublishError.refused({
            code: "first_comment_unsupported",
            message: "Pinterest takes no comments through its API."
          })
        )
      const acting = yield* actingOf(request.account, request.credentials)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(
        decodeHandle(handleText),
        (): PinterestHandle => ({ v: 1, stage: "sending", startedAt: now })
      )
      switch (handle.stage) {
        case "sending":
          return yield* start(request, acting, handle.startedAt)
        case "processing":
          return yield* Effect.catch(poll(acting, handle), keepHandle(handle))
        case "ready":
          return yield* Effect.flatMap(
            deps.api.createPin(acting, pinOf(request, handle.boardId, yield* videoSource(request, handle.mediaId))),
            settle
          )
      }
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const found = decodeHandle(handleText)
      if (Option.isNone(found)) return { _tag: "Unknown" } satisfies Recovery
      const handle = found.value
      const video = request.media.some((m) => m.type === "video")
      // Uploading and processing a video send no pin.
      if (handle.stage === "processing" || (handle.stage === "sending" && video))
        return { _tag: "NotPublished" } satisfies Recovery
      const acting = yield* actingOf(request.account, request.credentials)
      const boardId = handle.stage === "ready" ? handle.boardId : yield* boardOf(request, acting)
      const pins = yield* deps.api.boardPins(acting, boardId)
      const wanted = pinOf(request, boardId, null)
      const same = (value: string | null | undefined, sent: string | undefined) =>
        (value ?? undefined) === sent || (value === "" && sent === undefined)
      const made = pins.items.find(
        (p) =>
          same(p.title, wanted.title) &&
          same(p.description, wanted.description) &&
          same(p.link, wanted.link) &&
          (p.created_at === undefined || Date.parse(p.created_at) >= handle.startedAt - CLOCK_SKEW_MS)
      )
      return made === undefined
        ? ({ _tag: "NotPublished" } satisfies Recovery)
        : ({ _tag: "Published", published: { externalId: made.id, url: pinUrl(made.id) } } satisfies Recovery)
    })

  return {
    platform: "pinterest",
    prepare: () =>
      Effect.map(Clock.currentTimeMillis, (now) => encodeHandle({ v: 1, stage: "sending", startedAt: now })),
    publish,
    recover,
    // A pin is one object (Pinterest has no threads or comments Herald posts).
    unpublish: (request) =>
      Effect.flatMap(actingOf(request.account, request.credentials), (acting) =>
        deps.api.deletePin(acting, request.externalId)
      ),
    boards: (account, credentials) =>
      Effect.flatMap(actingOf(account, credentials), (acting) =>
        Effect.map(deps.api.boards(acting), (boards) =>
          boards.map((b) => ({
            id: b.id,
            name: b.name,
            description: b.description ?? null,
            privacy: b.privacy ?? null
          }))
        )
      )
  }
}
