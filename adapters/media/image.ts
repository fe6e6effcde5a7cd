import sharp from "sharp"
import { Effect } from "effect"
import { type Inspection, MediaUnreadable } from "../../application/ports/MediaProbe.ts"
import { countFrames } from "./frames.ts"

export interface ImageTools {
  /** Decompression-bomb guard: images over this many pixels (one frame) are refused before they are decoded. */
  readonly maxPixels: number
  /** What the image would take decoded, all frames together (width x height x channels x bytes a sample x frames). */
  readonly maxDecodedBytes: number
  /** Animated GIF and WebP: more frames than this are refused before libvips reads them. */
  readonly maxFrames: number
  readonly previewWidth: number
}

const message = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .split("\n")[0]
    .slice(0, 200)

/** Bytes of one sample for libvips' band formats. */
const sampleBytes: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`

/** Dimensions as displayed (EXIF orientation applied) and a JPEG preview; the full decode also proves the file whole. */
export const inspectImage = (
  tools: ImageTools,
  path: string,
  mimeType: string
): Effect.Effect<Inspection, MediaUnreadable> =>
  Effect.gen(function* () {
    const frames = yield* Effect.promise(() => countFrames(path, mimeType, tools.maxFrames).catch(() => 1))
    if (frames > tools.maxFrames)
      return yield* Effect.fail(
        new MediaUnreadable(
          `The animation has more than ${tools.maxFrames} frames; such files are refused before they are read.`,
          {
            reason: "too_many_frames",
            maxFrames: tools.maxFrames
          }
        )
      )
    const open = () => sharp(path, { limitInputPixels: tools.maxPixels, failOn: "error", sequentialRead: true })
    const meta = yield* Effect.tryPromise({
      try: () => sharp(path, { limitInputPixels: false }).metadata(),
      catch: message
    }).pipe(Effect.mapError((m) => new MediaUnreadable(`The image cannot be read: ${m}`)))
    const width = meta.autoOrient?.width ?? meta.width
    const height = meta.autoOrient?.height ?? meta.height
    if (!width || !height) return yield* Effect.fail(new MediaUnreadable("The image has no dimensions."))
    if (width * height > tools.maxPixels)
      return yield* Effect.fail(
        new MediaUnreadable(
          `The image is ${width}x${height} pixels, over the limit of ${tools.maxPixels} pixels; such files are refused as possible decompression bombs.`,
          {
            reason: "too_many_pixels",
            width,
            height,
            maxPixels: tools.maxPixels
          }
        )
      )
    // The pixel count alone misses deep images: a 16-bit RGBA PNG takes 8 bytes a pixel.
    const channels = meta.channels ?? 4
    const bytesPerSample = sampleBytes[meta.depth ?? ""] ?? 8
    const pages = Math.max(1, meta.pages ?? 1)
    const decodedBytes = width * height * channels * bytesPerSample * pages
    if (decodedBytes > tools.maxDecodedBytes)
      return yield* Effect.fail(
        new MediaUnreadable(
          `The image would take ${megabytes(decodedBytes)} decoded (${width}x${height} pixels, ${channels} channels of ${bytesPerSample * 8} bits` +
            `${pages > 1 ? `, ${pages} frames` : ""}), over the limit of ${megabytes(tools.maxDecodedBytes)}; such files are refused as possible decompression bombs. ` +
            "Send a smaller image (fewer pixels, 8 bits a channel, or fewer frames).",
          {
            reason: "decoded_size_over_budget",
            width,
            height,
            channels,
            bytesPerSample,
            pages,
            decodedBytes,
            budgetBytes: tools.maxDecodedBytes
          }
        )
      )
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
    return {
      width,
      height,
      durationMs: null,
      preview: new Uint8Array(preview.buffer, preview.byteOffset, preview.length)
    }
  })
