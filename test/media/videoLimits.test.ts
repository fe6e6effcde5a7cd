import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { make } from "../../adapters/media/SharpFfmpegProbe.ts"
import { clip, h264 } from "./fixtures.ts"

// Small limits stand in for the default 256 MiB: a 16k x 16k clip takes seconds to encode.
const KiB = 1024
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "herald-video-limits-"))
  clip(dir, "vga.mp4", "640x480", 1, h264)
  clip(dir, "small.mp4", "320x240", 1, h264)
  clip(dir, "deep.mp4", "320x240", 1, ["-pix_fmt", "yuv420p10le", "-c:v", "libx264", "-preset", "ultrafast"])
}, 60_000)
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const inspect = (name: string, options: Parameters<typeof make>[0]) =>
  Effect.runPromise(
    Effect.flatMap(make(options), (probe) => Effect.result(probe.inspectFile(join(dir, name), "video", "video/mp4")))
  )

describe("video frames too large to decode", () => {
  it("over the budget at 4 bytes a pixel: refused by ffprobe's own pixel limit, with the frame's size", async () => {
    // 640 x 480 x 4 = 1.2 MB, over 512 KiB: ffprobe is told at most 131,072 pixels and refuses to decode.
    const result = await inspect("vga.mp4", { maxDecodedBytes: 512 * KiB })
    expect(result._tag).toBe("Failure")
    expect(result._tag === "Failure" && result.failure.details).toEqual({
      reason: "decoded_size_over_budget",
      width: 640,
      height: 480,
      bytesPerSample: 1,
      decodedBytes: 640 * 480 * 4,
      budgetBytes: 512 * KiB
    })
  })

  it("deeper than 8 bits counts 2 bytes a sample", async () => {
    // 320 x 240 x 4 x 2 = 600 KiB: over 512 KiB although the same clip at 8 bits (300 KiB) fits.
    const deep = await inspect("deep.mp4", { maxDecodedBytes: 512 * KiB })
    expect(deep._tag === "Failure" && deep.failure.details).toMatchObject({
      reason: "decoded_size_over_budget",
      width: 320,
      height: 240,
      bytesPerSample: 2
    })
    const small = await inspect("small.mp4", { maxDecodedBytes: 512 * KiB })
    expect(small._tag === "Success" && small.success).toMatchObject({ width: 320, height: 240 })
    expect(small._tag === "Success" && small.success.preview).not.toBeNull()
  })

  it("the pixel limit applies to video frames too", async () => {
    const result = await inspect("small.mp4", { maxPixels: 320 * 240 - 1 })
    expect(result._tag === "Failure" && result.failure.details).toMatchObject({
      reason: "too_many_pixels",
      width: 320,
      height: 240
    })
  })
})
