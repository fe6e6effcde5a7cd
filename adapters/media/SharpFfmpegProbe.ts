import { mkdtemp, open, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Config, Effect, Layer, Option, Schema } from "effect"
import { MediaProbe, type MediaProbeShape, type ProbeScratch } from "../../application/ports/MediaProbe.ts"
import type { MediaType } from "../../domain/media.ts"

export interface Options {
  /** Where scratch copies go (each upload gets its own directory, removed afterwards). */
  readonly tmpDir?: string | undefined
  /** Default: the static builds from @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe. */
  readonly ffmpegPath?: string | undefined
  readonly ffprobePath?: string | undefined
  /** Default 16383 x 16383 (sharp's own default). */
  readonly maxPixels?: number | undefined
  /** What an image (all frames) or one video frame may take decoded; default 256 MiB. */
  readonly maxDecodedBytes?: number | undefined
  /** Frames of an animated GIF or WebP; default 2,000. */
  readonly maxFrames?: number | undefined
  readonly previewWidth?: number | undefined
  readonly toolTimeoutMs?: number | undefined
}

/** A few times the 100 MB upload limit: 85 megapixels of 8-bit RGB, 64 of RGBA, 32 of 16-bit RGBA. */
const DEFAULT_MAX_DECODED_BYTES = 256 * 1024 * 1024

// file-type reads at most a few kilobytes for every accepted type; 64 KiB leaves room.
const SNIFF_BYTES = 64 * 1024

/**
 * sharp (libvips), file-type, the ffmpeg builds and the inspectors, loaded on the first upload rather
 * than at start: a host that never sees one does not hold them (sharp and file-type alone are ~14 MB).
 */
const loadTools = async (options: Options) => {
  const [{ default: sharp }, { fileTypeFromBuffer }, image, video] = await Promise.all([
    import("sharp"),
    import("file-type"),
    import("./image.ts"),
    import("./video.ts")
  ])
  // Each upload is decoded once: libvips' operation cache would only hold memory.
  sharp.cache(false)
  const ffmpegPath = options.ffmpegPath ?? (await import("@ffmpeg-installer/ffmpeg")).default.path
  const ffprobePath = options.ffprobePath ?? (await import("@ffprobe-installer/ffprobe")).default.path
  const previewWidth = options.previewWidth ?? 480
  const limits = {
    maxPixels: options.maxPixels ?? 16383 * 16383,
    maxDecodedBytes: options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES
  }
  const images = { ...limits, maxFrames: options.maxFrames ?? 2000, previewWidth }
  const videos = { ...limits, ffmpegPath, ffprobePath, previewWidth, timeoutMs: options.toolTimeoutMs ?? 120_000 }
  return {
    sniff: fileTypeFromBuffer,
    inspectFile: (path: string, type: MediaType, mimeType: string) =>
      type === "image" ? image.inspectImage(images, path, mimeType) : video.inspectVideo(videos, path, mimeType)
  }
}

export const make = (options: Options = {}) =>
  Effect.sync(() => {
    let loading: ReturnType<typeof loadTools> | undefined
    const tools = Effect.orDie(Effect.tryPromise(() => (loading ??= loadTools(options))))
    const io = <A>(run: () => Promise<A>) => Effect.orDie(Effect.tryPromise(run))
    const inspectFile = (path: string, type: MediaType, mimeType: string) =>
      Effect.flatMap(tools, (t) => t.inspectFile(path, type, mimeType))

    const scratch = Effect.acquireRelease(
      io(async () => {
        const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), "herald-upload-"))
        const path = join(dir, "upload")
        return { dir, path, file: await open(path, "wx") }
      }),
      ({ dir, file }) =>
        Effect.promise(() =>
          file
            .close()
            .catch(() => undefined)
            .then(() => rm(dir, { recursive: true, force: true }))
        )
    ).pipe(
      Effect.map(({ path, file }): ProbeScratch => {
        // One write in flight: the next batch is received while the disk takes this one.
        let inFlight: Promise<unknown> = Promise.resolve()
        return {
          write: (chunks) =>
            io(async () => {
              await inFlight
              inFlight = file.writev([...chunks])
            }),
          inspect: (type, mimeType) =>
            Effect.andThen(
              io(() => inFlight),
              inspectFile(path, type, mimeType)
            )
        }
      })
    )

    return {
      sniffBytes: SNIFF_BYTES,
      sniff: (head) =>
        Effect.flatMap(tools, ({ sniff }) =>
          Effect.map(
            Effect.promise(() => sniff(head).catch(() => undefined)),
            (t) => Option.fromNullishOr(t?.mime)
          )
        ),
      scratch,
      inspectFile
    } satisfies MediaProbeShape
  })

export const layer = (options: Options = {}) => Layer.effect(MediaProbe)(make(options))

/**
 * FFMPEG_PATH / FFPROBE_PATH override the bundled binaries (for instance with Debian's `apt-get install ffmpeg`);
 * HERALD_MEDIA_MAX_DECODED_MB sets the decoded-size limit in MiB.
 */
export const layerConfig = Layer.effect(MediaProbe)(
  Effect.gen(function* () {
    const env = yield* Config.all({
      ffmpegPath: Config.option(Config.String("FFMPEG_PATH")),
      ffprobePath: Config.option(Config.String("FFPROBE_PATH")),
      // At least 1 MiB: 0 or less would refuse every upload.
      maxDecodedMb: Config.option(
        Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "HERALD_MEDIA_MAX_DECODED_MB")
      )
    })
    return yield* make({
      ffmpegPath: Option.getOrUndefined(env.ffmpegPath),
      ffprobePath: Option.getOrUndefined(env.ffprobePath),
      maxDecodedBytes: Option.getOrUndefined(Option.map(env.maxDecodedMb, (mb) => mb * 1024 * 1024))
    })
  })
)
