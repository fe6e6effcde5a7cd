import { Effect } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { inParts, readAll } from "../shared/media.ts"
import type { Acting, LinkedInApi } from "./api.ts"

/** Images go up in one PUT each, four at once; their URNs in the post's order. */
export const uploadImages = (api: LinkedInApi, blobs: BlobStoreShape, acting: Acting, images: ReadonlyArray<Media>) =>
  Effect.forEach(
    images,
    (image) =>
      Effect.gen(function* () {
        const { uploadUrl, image: urn } = yield* api.initializeImage(acting)
        yield* api.put(acting, uploadUrl, yield* readAll(blobs, image.blobKey))
        return urn
      }),
    { concurrency: 4 }
  )

/**
 * A video: initialize with its size, PUT each byte range LinkedIn names to that range's own URL (in
 * order, collecting the ETags), finalize with the ETags, and PUT the cover to the thumbnail URL. The
 * video's URN; LinkedIn then processes it.
 */
export const uploadVideo = (
  api: LinkedInApi,
  blobs: BlobStoreShape,
  acting: Acting,
  video: Media,
  cover: Media | null
) =>
  Effect.gen(function* () {
    const upload = yield* api.initializeVideo(acting, video.sizeBytes, cover !== null)
    const parts = [...upload.uploadInstructions].sort((a, b) => a.firstByte - b.firstByte)
    const etags: Array<string> = []
    yield* inParts(
      blobs,
      video.blobKey,
      parts.map((p) => p.lastByte - p.firstByte + 1),
      (bytes, index) =>
        Effect.flatMap(api.put(acting, parts[index].uploadUrl, bytes), (etag) =>
          etag === null
            ? Effect.fail(
                PublishError.unavailable({ message: "LinkedIn took a video part without naming it (no ETag)." })
              )
            : Effect.sync(() => void etags.push(etag))
        )
    )
    yield* api.finalizeVideo(acting, upload.video, upload.uploadToken ?? "", etags)
    if (cover !== null && upload.thumbnailUploadUrl !== undefined)
      yield* api.put(acting, upload.thumbnailUploadUrl, yield* readAll(blobs, cover.blobKey))
    return upload.video
  })
