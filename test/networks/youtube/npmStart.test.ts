import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeYouTube, startFakeYouTube } from "./fakeYouTube.ts"

const CHUNK = 256 * 1024

/**
 * `npm start` with YouTube's variables pointing at the fake YouTube: the channel connects through the
 * browser flow and a video with a thumbnail and a first comment is published; the process is killed
 * (SIGKILL) in the middle of the upload and started again on the same data directory, and the upload
 * resumes from the stored session: one session, one video, the bytes whole.
 */
describe("npm start with YouTube configured", () => {
  let fake: FakeYouTube
  let herald: Awaited<ReturnType<typeof startEmbedded>>
  let mp4: Buffer

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "herald-yt-npm-"))
    execFileSync(ffmpeg.path, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=640x360:rate=25",
      "-t",
      "3",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-b:v",
      "2500k",
      join(dir, "clip.mp4")
    ])
    mp4 = readFileSync(join(dir, "clip.mp4"))
    rmSync(dir, { recursive: true, force: true })
    fake = await startFakeYouTube()
    herald = await startEmbedded({
      YOUTUBE_CLIENT_ID: fake.clientId,
      YOUTUBE_CLIENT_SECRET: fake.clientSecret,
      YOUTUBE_AUTHORIZE_URL: fake.authorizeUrl,
      YOUTUBE_TOKEN_URL: fake.tokenUrl,
      YOUTUBE_API_URL: fake.origin,
      YOUTUBE_CHUNK_BYTES: String(CHUNK),
      // A job whose process died is taken over when its lease ends: 3 s here instead of a minute.
      HERALD_LEASE_MS: "3000",
      HERALD_FIRST_COMMENT_DELAY_MS: "500"
    })
  }, 90_000)
  afterAll(async () => {
    fake?.releaseStalled()
    await herald?.close()
    await fake?.close()
  })

  it("connects, is killed mid-upload, and after a restart publishes one video with its thumbnail and first comment", async () => {
    const [channel] = await herald.connect("youtube")
    expect(channel).toMatchObject({ platform: "youtube", username: "@alicemakes" })
    const video = await herald.upload(mp4, "video/mp4", "launch.mp4")
    const cover = await herald.upload(
      await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#228" } })
        .jpeg()
        .toBuffer(),
      "image/jpeg",
      "cover.jpg"
    )
    fake.state.stallAtByte = 2 * CHUNK
    const posted = await herald.post({
      accountIds: [channel.id],
      content: "Launch video\nAll the details.",
      mediaIds: [video],
      cover: { mediaId: cover },
      firstComment: "Thanks for watching!"
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    for (let i = 0; i < 300 && !fake.hasStalled(); i++) await new Promise((r) => setTimeout(r, 100))
    expect(fake.hasStalled(), herald.log()).toBe(true)
    const [session] = [...fake.sessions.values()]
    expect(session.received).toBe(2 * CHUNK)

    await herald.crash()
    fake.releaseStalled()
    await herald.restart()
    const done = await herald.until(posted.body.post.id, (p) => p.targets[0].firstComment?.status === "published")
    expect(done?.targets[0].firstComment?.status, herald.log()).toBe("published")

    expect(fake.sessions.size, "one upload session").toBe(1)
    expect(fake.videos.size, "one video").toBe(1)
    const made = fake.videos.get(done.targets[0].externalId)!
    expect(made.sha256).toBe(createHash("sha256").update(mp4).digest("hex"))
    expect(made.thumbnail?.type).toBe("image/jpeg")
    expect(made.metadata.snippet.title).toBe("Launch video")
    expect(fake.comments.at(-1)).toMatchObject({ videoId: made.id, text: "Thanks for watching!" })
    // After the restart the session was asked where it stood, and the upload went on from byte 2 x 256 KiB.
    const ranges = fake.calls("PUT", "/upload/youtube/v3/videos").map((r) => r.headers["content-range"])
    expect(ranges.filter((r) => r === `bytes */${mp4.length}`).length).toBeGreaterThanOrEqual(2)
    expect(ranges.filter((r) => r?.startsWith("bytes 0-"))).toHaveLength(1)

    await herald.stop()
    const tokens = fake.issuedTokens()
    for (const file of filesUnder(herald.dataDir)) {
      const bytes = readFileSync(file)
      for (const t of tokens) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
  }, 120_000)
})
