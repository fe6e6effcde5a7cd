import sharp from "sharp"
import { Effect } from "effect"
import { type Inspection, MediaUnreadable } from "../../application/ports/MediaProbe.ts"

export interface ImageTools {
  /** Decompression-bomb guard: images over this many pixels are refused before they are decoded. */
  readonly maxPixels: number
  readonly previewWidth: number
}

const message = (error: unknown) => String((error as Error)?.message ?? error).split("\n")[0].slice(0, 200)

/** Dimensions as displayed (EXIF orientation applied) and a JPEG preview; the full decode also proves the file whole. */
export const inspectImage = (tools: ImageTools, path: string): Effect.Effect<Inspection, MediaUnreadable> =>
  Effect.gen(function* () {
    const open = () => sharp(path, { limitInputPixels: tools.maxPixels, failOn: "error", sequentialRead: true })
    const meta = yield* Effect.tryPromise({ try: () => sharp(path, { limitInputPixels: false }).metadata(), catch: message }).pipe(
      Effect.mapError((m) => new MediaUnreadable(`The image cannot be read: ${m}`))
    )
    const width = meta.autoOrient?.width ?? meta.width
    const height = meta.autoOrient?.height ?? meta.height
    if (!width || !height) return yield* Effect.fail(new MediaUnreadable("The image has no dimensions."))
    if (width * height > tools.maxPixels)
      return yield* Effect.fail(new MediaUnreadable(
        `The image is ${width}x${height} pixels, over the limit of ${tools.maxPixels} pixels; such files are refused as possible decompression bombs.`,
        { reason: "too_many_pixels", width, height, maxPixels: tools.maxPixels }
      ))
    const preview = yield* Effect.tryPromise({
      try: () =>
        open()
          .rotate()
          // Very tall images get narrower rather than enormous.
          .resize({ width: tools.previewWidth, height: tools.previewWidth * 4, fit: "inside" })
          .flatten({ background: "#ffffff" })
          .jpeg({ quality: 80 })
          .toBuffer(),
      catch: message
    }).pipe(Effect.mapError((m) => new MediaUnreadable(`The image looks truncated or damaged: ${m}`)))
    return { width, height, durationMs: null, preview: new Uint8Array(preview.buffer, preview.byteOffset, preview.length) }
  })
