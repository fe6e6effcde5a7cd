import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { truncation } from "../../adapters/media/containers.ts"
import { clip, h264 } from "./fixtures.ts"

let dir: string
const files: Record<string, { readonly bytes: Buffer; readonly type: string }> = {}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "herald-containers-"))
  const make = (name: string, type: string, args: ReadonlyArray<string>) =>
    (files[name] = { bytes: clip(dir, name, "320x240", 2, args), type })
  make("faststart.mp4", "video/mp4", [...h264, "-movflags", "+faststart"])
  make("index-last.mp4", "video/mp4", h264)
  make("clip.mov", "video/quicktime", [...h264, "-movflags", "+faststart"])
  make("fragmented.mp4", "video/mp4", [...h264, "-movflags", "frag_keyframe+empty_moov"])
  make("clip.webm", "video/webm", ["-c:v", "libvpx", "-b:v", "200k"])
  make("clip.mkv", "video/x-matroska", h264)
  make("clip.avi", "video/x-msvideo", ["-c:v", "mpeg4"])
  make("clip.mpg", "video/mpeg", ["-c:v", "mpeg2video", "-f", "vob"])
}, 60_000)
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const check = (bytes: Uint8Array, type: string) => {
  const path = join(dir, `probe-${Math.random().toString(36).slice(2)}`)
  writeFileSync(path, bytes)
  return truncation(path, type)
}

describe("truncation: a video shorter than its container declares", () => {
  it("every container, cut after 3,000 bytes, in the middle, or one byte short, is truncated; whole, it is not", async () => {
    for (const [name, { bytes, type }] of Object.entries(files)) {
      expect(await check(bytes, type), name).toBeNull()
      for (const length of [3000, bytes.length >> 1, bytes.length - 1]) {
        const cut = await check(bytes.subarray(0, length), type)
        expect(cut, `${name} cut at ${length}`).toMatchObject({ fileBytes: length })
        expect(cut!.declaredBytes, `${name} cut at ${length}`).toBeGreaterThan(length)
      }
    }
  })

  it("a stream written without sizes (live WebM, fragmented MP4 to a pipe) and trailing padding are not truncated", async () => {
    const live = Buffer.from(files["clip.webm"].bytes)
    // The Segment's size as a live muxer writes it: unknown (all ones, 8 bytes).
    const segment = live.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67]))
    Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).copy(live, segment + 4)
    expect(await check(live.subarray(0, live.length >> 1), "video/webm")).toBeNull()
    expect(await check(Buffer.concat([files["index-last.mp4"].bytes, Buffer.alloc(5)]), "video/mp4")).toBeNull()
    expect(await check(Buffer.concat([files["index-last.mp4"].bytes, Buffer.alloc(64, 0xfe)]), "video/mp4")).toBeNull()
  })

  it("types without declared sizes are not judged", async () => {
    expect(await check(Buffer.alloc(100), "image/png")).toBeNull()
  })
})
