import { Effect, Stream } from "effect"
import sharp from "sharp"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Media } from "../../../domain/media.ts"
import type { NetworkRules } from "../../../domain/networkRules.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { blobFailure, readAll } from "./media.ts"

/** The image as JPEG: upright (EXIF orientation), transparency on white, metadata dropped (no GPS position leaves Herald). */
export const toJpeg = (input: Uint8Array) =>
  sharp(input, { failOn: "error" }).rotate().flatten({ background: "#ffffff" }).jpeg({ quality: 90 }).toBuffer()

/**
 * The blob key a network should fetch for `media`: its own when the network takes its type, else a
 * converted copy (the rules row's first format), made once beside the upload and reused.
 */
export const inAcceptedFormat = (blobs: BlobStoreShape, rules: NetworkRules, media: Media) => {
  const formats = rules.imageFormats
  if (media.type !== "image" || formats === undefined || formats.includes(media.mimeType))
    return Effect.succeed(media.blobKey)
  const key = `${media.blobKey}.converted.jpg`
  return Effect.gen(function* () {
    const exists = yield* Effect.result(blobs.stat(key))
    if (exists._tag === "Success") return key
    const bytes = yield* readAll(blobs, media.blobKey)
    const jpeg = yield* Effect.tryPromise({
      try: () => toJpeg(bytes),
      catch: () =>
        PublishError.refused({
          code: "media_unreadable",
          message: `The image ${media.id} could not be converted to JPEG.`
        })
    })
    yield* blobs.put(key, Stream.make(new Uint8Array(jpeg)), "image/jpeg").pipe(Effect.mapError(blobFailure))
    return key
  })
}
