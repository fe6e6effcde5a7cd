import { Effect, Fiber } from "effect"
import { type Inspection, MediaUnreadable } from "../../application/ports/MediaProbe.ts"
import { truncation } from "./containers.ts"
import { firstLine, runTool } from "./tools.ts"

export interface VideoTools {
  readonly ffprobePath: string
  readonly ffmpegPath: string
  readonly previewWidth: number
  readonly timeoutMs: number
  /** A frame over this many pixels is refused (the images' limit). */
  readonly maxPixels: number
  /** What one decoded frame may take, counted as 4 samples a pixel (the decoder's and scaler's copies). */
  readonly maxDecodedBytes: number
}

interface ProbeStream {
  readonly codec_type?: string
  readonly width?: number
  readonly height?: number
  readonly pix_fmt?: string
  readonly bits_per_raw_sample?: string
  readonly duration?: string
  readonly disposition?: { readonly attached_pic?: number }
  readonly tags?: { readonly rotate?: string }
  readonly side_data_list?: ReadonlyArray<{ readonly rotation?: number }>
}
interface ProbeOutput {
  readonly streams?: ReadonlyArray<ProbeStream>
  readonly format?: { readonly duration?: string }
}

const rotationOf = (s: ProbeStream): number =>
  Math.abs(Number(s.tags?.rotate ?? s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0)) % 180

const seconds = (text: string | undefined): number | null => {
  const n = Number(text)
  return text !== undefined && Number.isFinite(n) && n >= 0 ? n : null
}

const SAMPLES_PER_PIXEL = 4

/** Bytes of one sample: 2 above 8 bits (yuv420p10le, rgba64be, p010le...), else 1. */
const sampleBytes = (s: ProbeStream): number =>
  Number(s.bits_per_raw_sample) > 8 || /(9|1[0-6]|48|64)(le|be)$/.test(s.pix_fmt ?? "") ? 2 : 1

/**
 * The most pixels a frame may have before ffmpeg or ffprobe decodes it (their -max_pixels): the
 * decoder then refuses it instead of allocating it. 8-bit frames; deeper ones are refused after the probe.
 */
const decodablePixels = (tools: VideoTools) =>
  Math.min(tools.maxPixels, Math.floor(tools.maxDecodedBytes / SAMPLES_PER_PIXEL))

// libavutil's words when -max_pixels refuses a frame (imgutils.c).
const overMaxPixels = /Picture size (\d+)x(\d+) exceeds specified max pixel count/

/** Why a frame of this size cannot be decoded here, or null when it can. */
const frameRefusal = (
  tools: VideoTools,
  width: number,
  height: number,
  bytesPerSample: number
): MediaUnreadable | null => {
  if (width * height > tools.maxPixels)
    return new MediaUnreadable(
      `A frame of the video is ${width}x${height} pixels, over the limit of ${tools.maxPixels} pixels.`,
      {
        reason: "too_many_pixels",
        width,
        height,
        maxPixels: tools.maxPixels
      }
    )
  const decodedBytes = width * height * SAMPLES_PER_PIXEL * bytesPerSample
  if (decodedBytes <= tools.maxDecodedBytes) return null
  return new MediaUnreadable(
    `A frame of the video is ${width}x${height} pixels and would take ${Math.round(decodedBytes / (1024 * 1024))} MB decoded, over the limit of ` +
      `${Math.round(tools.maxDecodedBytes / (1024 * 1024))} MB; such files are refused before they are decoded. Send a smaller video.`,
    {
      reason: "decoded_size_over_budget",
      width,
      height,
      bytesPerSample,
      decodedBytes,
      budgetBytes: tools.maxDecodedBytes
    }
  )
}

/** One frame as a JPEG; null when ffmpeg cannot make one (the upload stands without a preview). */
const frame = (tools: VideoTools, path: string, atSeconds: number) =>
  Effect.map(
    runTool(
      tools.ffmpegPath,
      [
        "-v",
        "error",
        "-nostdin",
        "-max_pixels",
        String(decodablePixels(tools)),
        "-ss",
        atSeconds.toFixed(3),
        "-i",
        path,
        "-frames:v",
        "1",
        "-vf",
        `scale=${tools.previewWidth}:-2`,
        "-pix_fmt",
        "yuvj420p",
        "-q:v",
        "4",
        "-f",
        "image2pipe",
        "-vcodec",
        "mjpeg",
        "pipe:1"
      ],
      tools.timeoutMs
    ),
    (r) => (r.ok && r.stdout.length > 0 ? new Uint8Array(r.stdout) : null)
  )

/**
 * Width, height and duration from ffprobe (as displayed, rotation applied), and a frame for the
 * preview. A file shorter than its container declares is refused first; frames too large to decode
 * are refused by ffmpeg's own pixel limit and then by the probe's figures.
 */
export const inspectVideo = (
  tools: VideoTools,
  path: string,
  mimeType: string
): Effect.Effect<Inspection, MediaUnreadable> =>
  Effect.gen(function* () {
    const cut = yield* Effect.promise(() => truncation(path, mimeType).catch(() => null))
    if (cut !== null)
      return yield* Effect.fail(
        new MediaUnreadable(
          `The video is truncated: its container declares ${cut.declaredBytes} bytes but the file has ${cut.fileBytes}.`,
          {
            reason: "truncated",
            fileBytes: cut.fileBytes,
            declaredBytes: cut.declaredBytes
          }
        )
      )
    const early = yield* Effect.forkChild(frame(tools, path, 1))
    const probe = yield* runTool(
      tools.ffprobePath,
      [
        "-v",
        "error",
        "-max_pixels",
        String(decodablePixels(tools)),
        "-print_format",
        "json",
        "-show_format",
        "-show_streams",
        path
      ],
      tools.timeoutMs
    )
    const tooLarge = overMaxPixels.exec(probe.stderr)
    const refusedEarly = tooLarge && frameRefusal(tools, Number(tooLarge[1]), Number(tooLarge[2]), 1)
    if (refusedEarly) return yield* Effect.fail(refusedEarly)
    if (!probe.ok)
      return yield* Effect.fail(new MediaUnreadable(`The video cannot be read: ${firstLine(probe.stderr)}`))
    const out = JSON.parse(probe.stdout.toString("utf8")) as ProbeOutput
    const video = out.streams?.find(
      (s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1 && (s.width ?? 0) > 0
    )
    if (video === undefined) return yield* Effect.fail(new MediaUnreadable("The file has no readable video stream."))
    const refused = frameRefusal(tools, video.width!, video.height ?? 0, sampleBytes(video))
    if (refused !== null) return yield* Effect.fail(refused)
    const turned = rotationOf(video) === 90
    const duration = seconds(out.format?.duration) ?? seconds(video.duration)
    // A second in skips black lead-in frames (that frame was started alongside ffprobe); short clips use their middle.
    const at = duration === null ? 0 : Math.min(1, duration / 2)
    const preview =
      (at === 1 ? yield* Fiber.join(early) : null) ??
      (yield* frame(tools, path, at)) ??
      (at > 0 ? yield* frame(tools, path, 0) : null)
    return {
      width: turned ? video.height! : video.width!,
      height: turned ? video.width! : video.height!,
      durationMs: duration === null ? null : Math.round(duration * 1000),
      preview
    }
  })
