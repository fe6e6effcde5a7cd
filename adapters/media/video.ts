import { Effect, Fiber } from "effect"
import { type Inspection, MediaUnreadable } from "../../application/ports/MediaProbe.ts"
import { firstLine, runTool } from "./tools.ts"

export interface VideoTools {
  readonly ffprobePath: string
  readonly ffmpegPath: string
  readonly previewWidth: number
  readonly timeoutMs: number
}

interface ProbeStream {
  readonly codec_type?: string
  readonly width?: number
  readonly height?: number
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

/** One frame as a JPEG; null when ffmpeg cannot make one (the upload stands without a preview). */
const frame = (tools: VideoTools, path: string, atSeconds: number) =>
  Effect.map(
    runTool(tools.ffmpegPath, [
      "-v", "error", "-nostdin", "-ss", atSeconds.toFixed(3), "-i", path, "-frames:v", "1",
      "-vf", `scale=${tools.previewWidth}:-2`, "-pix_fmt", "yuvj420p", "-q:v", "4", "-f", "image2pipe", "-vcodec", "mjpeg", "pipe:1"
    ], tools.timeoutMs),
    (r) => (r.ok && r.stdout.length > 0 ? new Uint8Array(r.stdout) : null)
  )

/** Width, height and duration from ffprobe (as displayed, rotation applied), and a frame for the preview. */
export const inspectVideo = (tools: VideoTools, path: string): Effect.Effect<Inspection, MediaUnreadable> =>
  Effect.gen(function* () {
    const early = yield* Effect.forkChild(frame(tools, path, 1))
    const probe = yield* runTool(tools.ffprobePath, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], tools.timeoutMs)
    if (!probe.ok) return yield* Effect.fail(new MediaUnreadable(`The video cannot be read: ${firstLine(probe.stderr)}`))
    const out = JSON.parse(probe.stdout.toString("utf8")) as ProbeOutput
    const video = out.streams?.find((s) => s.codec_type === "video" && s.disposition?.attached_pic !== 1 && (s.width ?? 0) > 0)
    if (video === undefined) return yield* Effect.fail(new MediaUnreadable("The file has no readable video stream."))
    const turned = rotationOf(video) === 90
    const duration = seconds(out.format?.duration) ?? seconds(video.duration)
    // A second in skips black lead-in frames (that frame was started alongside ffprobe); short clips use their middle.
    const at = duration === null ? 0 : Math.min(1, duration / 2)
    const preview = (at === 1 ? yield* Fiber.join(early) : null) ?? (yield* frame(tools, path, at)) ?? (at > 0 ? yield* frame(tools, path, 0) : null)
    return {
      width: turned ? video.height! : video.width!,
      height: turned ? video.width! : video.height!,
      durationMs: duration === null ? null : Math.round(duration * 1000),
      preview
    }
  })
