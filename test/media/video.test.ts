import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectSandboxAccount, type Harness, postJson, readJson, startHarness, uploadMultipart } from "./harness.ts"

let h: Harness
let dir: string
const clip = (name: string, args: ReadonlyArray<string>) => {
  const path = join(dir, name)
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=320x240:rate=15",
    "-t",
    "2",
    ...args,
    path
  ])
  return readFileSync(path)
}
let mp4: Buffer, webm: Buffer, rotated: Buffer, faststart: Buffer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "herald-video-test-"))
  mp4 = clip("clip.mp4", ["-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"])
  webm = clip("clip.webm", ["-c:v", "libvpx", "-b:v", "200k"])
  // The index first, as phones and web encoders often write it: ffprobe reads such a file cut short without complaint.
  faststart = clip("faststart.mp4", [
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-movflags",
    "+faststart"
  ])
  // Rotation is container metadata (a display matrix), set on a copy as phones do.
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-i",
    join(dir, "clip.mp4"),
    "-c",
    "copy",
    "-metadata:s:v:0",
    "rotate=90",
    join(dir, "rotated.mp4")
  ])
  rotated = readFileSync(join(dir, "rotated.mp4"))
  h = await startHarness()
}, 60_000)
afterAll(async () => {
  await h?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const previewOf = async (apiKey: string, previewUrl: string) => {
  const res = await fetch(`${h.baseUrl}${previewUrl}`, { headers: { authorization: `Bearer ${apiKey}` } })
  expect(res.status).toBe(200)
  return sharp(Buffer.from(await res.arrayBuffer())).metadata()
}

describe("POST /media (videos)", () => {
  for (const [name, type] of [
    ["clip.mp4", "video/mp4"],
    ["clip.webm", "video/webm"]
  ] as const) {
    it(`${name}: width, height, durationMs and a 480 px frame preview`, async () => {
      const { apiKey } = await h.signup()
      const bytes = name.endsWith("mp4") ? mp4 : webm
      const res = await uploadMultipart(h, apiKey, bytes, name)
      expect(res.status).toBe(201)
      const { media } = await readJson(res)
      expect(media).toMatchObject({
        type: "video",
        mimeType: type,
        filename: name,
        sizeBytes: bytes.length,
        width: 320,
        height: 240
      })
      expect(Math.abs(media.durationMs - 2000)).toBeLessThan(150)
      const preview = await previewOf(apiKey, media.previewUrl)
      expect(preview).toMatchObject({ format: "jpeg", width: 480, height: 360 })
      const file = await fetch(media.url)
      expect(file.headers.get("content-type")).toBe(type)
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true)
    })
  }

  it("a phone-style rotated video reports its displayed size", async () => {
    const { apiKey } = await h.signup()
    const { media } = await readJson(await uploadMultipart(h, apiKey, rotated, "portrait.mp4"))
    expect(media).toMatchObject({ type: "video", width: 240, height: 320 })
    expect((await previewOf(apiKey, media.previewUrl)).width).toBe(480)
  })

  it("covers: an offset within the video's duration, or an image upload", async () => {
    const { apiKey } = await h.signup()
    const accountId = await connectSandboxAccount(h, apiKey)
    const video = (await readJson(await uploadMultipart(h, apiKey, mp4, "clip.mp4"))).media.id
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#abc" } })
      .png()
      .toBuffer()
    const image = (await readJson(await uploadMultipart(h, apiKey, png, "cover.png"))).media.id
    const dry = (cover: unknown) =>
      postJson(h, apiKey, { accountIds: [accountId], content: "clip", mediaIds: [video], cover, dryRun: true })
    expect((await dry({ offsetMs: 1500 })).status).toBe(200)
    expect((await dry({ mediaId: image })).status).toBe(200)
    const late = await dry({ offsetMs: 5000 })
    expect((await readJson(late)).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["cover.offsetMs"] }
    })
    const notImage = await dry({ mediaId: video })
    expect((await readJson(notImage)).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["cover.mediaId"] }
    })
  })

  it("a video cut in half (no index) is media_unreadable", async () => {
    const { apiKey } = await h.signup()
    // The MP4 index (moov) sits at the end of ffmpeg's output by default, so the first half has none.
    const res = await uploadMultipart(h, apiKey, mp4.subarray(0, Math.floor(mp4.length / 2)), "cut.mp4")
    expect(res.status).toBe(400)
    expect((await readJson(res)).error.code).toBe("media_unreadable")
  })

  it("a video cut short is media_unreadable, truncated, even with its index first (MP4) or a header that says it all (WebM)", async () => {
    const { apiKey } = await h.signup()
    for (const [bytes, name, length] of [
      [faststart, "cut.mp4", 3000],
      [faststart, "half.mp4", faststart.length >> 1],
      [webm, "cut.webm", webm.length >> 1]
    ] as const) {
      const res = await uploadMultipart(h, apiKey, bytes.subarray(0, length), name)
      expect(res.status, name).toBe(400)
      const { error } = await readJson(res)
      expect(error).toMatchObject({ code: "media_unreadable", details: { reason: "truncated", fileBytes: length } })
      expect(error.details.declaredBytes).toBeGreaterThan(length)
    }
    const whole = await uploadMultipart(h, apiKey, faststart, "whole.mp4")
    expect(whole.status).toBe(201)
    expect((await readJson(whole)).media).toMatchObject({ width: 320, height: 240 })
  })
})
