import { Effect } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { inSegments, readAll } from "../shared/media.ts"
import type { Acting, ProcessingInfo, XApi } from "./api.ts"

/** X takes append segments up to 5 MB; 4 MiB keeps each request well under it. */
export const SEGMENT_BYTES = 4 * 1024 * 1024

/** X's uploads for one post, and the one X still processes (a video or GIF), if any. */
export interface Uploaded {
  readonly mediaIds: ReadonlyArray<string>
  readonly processing: { readonly id: string; readonly checkAfterMs: number } | null
}

/** When to ask X again about an upload it processes: when X says, at least a second. */
export const checkAfterMs = (info: ProcessingInfo) => Math.max(1, info.check_after_secs ?? 5) * 1000

export const processingFailed = (info: ProcessingInfo) =>
  PublishError.refused({
    code: "upstream_rejected",
    message: `X could not process the media: ${info.error?.message ?? info.error?.name ?? "processing failed"}`
  })

/** Images go up in one request each; a video or an (animated) GIF goes in 4 MiB segments, then X processes it. */
const uploadOne = (api: XApi, blobs: BlobStoreShape, acting: Acting, media: Media) =>
  Effect.gen(function* () {
    if (media.type === "image" && media.mimeType !== "image/gif") {
      const uploaded = yield* api.uploadImage(acting, yield* readAll(blobs, media.blobKey), media.mimeType)
      return { id: uploaded.id, info: uploaded.processing_info ?? null }
    }
    const id = yield* api.initialize(acting, {
      media_type: media.mimeType,
      total_bytes: media.sizeBytes,
      media_category: media.type === "video" ? "tweet_video" : "tweet_gif"
    })
    yield* inSegments(blobs, media.blobKey, SEGMENT_BYTES, (segment, index) => api.append(acting, id, index, segment))
    const finalized = yield* api.finalize(acting, id)
    return { id, info: finalized.processing_info ?? null }
  })

/** Uploads a post's media in its order (images four at once). */
export const uploadAll = (
  api: XApi,
  blobs: BlobStoreShape,
  acting: Acting,
  media: ReadonlyArray<Media>
): Effect.Effect<Uploaded, PublishError> =>
  Effect.gen(function* () {
    const results = yield* Effect.forEach(media, (m) => uploadOne(api, blobs, acting, m), { concurrency: 4 })
    const failed = results.find((r) => r.info?.state === "failed")
    if (failed !== undefined) return yield* Effect.fail(processingFailed(failed.info!))
    const waiting = results.find((r) => r.info !== null && r.info.state !== "succeeded")
    return {
      mediaIds: results.map((r) => r.id),
      processing: waiting === undefined ? null : { id: waiting.id, checkAfterMs: checkAfterMs(waiting.info!) }
    }
  })
