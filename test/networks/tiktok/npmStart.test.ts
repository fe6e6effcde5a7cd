import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import ffmpeg from "@ffmpeg-installer/ffmpeg"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { filesUnder, startEmbedded } from "../../support/embeddedProcess.ts"
import { type FakeTikTok, startFakeTikTok } from "./fakeTikTok.ts"

/**
 * `npm start` with TikTok's variables pointing at the fake TikTok: the creator connects through the
 * browser flow; a video goes out with a privacy level the creator allows, a post asking for one the
 * creator does not allow fails with tiktok_privacy_conflict, photos are pulled by TikTok from
 * Herald's own file URLs under HERALD_PUBLIC_URL, and a draft goes to the creator's inbox.
 */
describe("npm start with TikTok configured", () => {
  let fake: FakeTikTok
  let herald: Awaited<ReturnType<typeof startEmbedded>>
  let mp4: Buffer

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "herald-tt-npm-"))
    execFileSync(ffmpeg.path, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=360x640:rate=25",
      "-t",
      "2",
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      join(dir, "clip.mp4")
    ])
    mp4 = readFileSync(join(dir, "clip.mp4"))
    rmSync(dir, { recursive: true, force: true })
    fake = await startFakeTikTok()
    herald = await startEmbedded({
      TIKTOK_CLIENT_KEY: fake.clientKey,
      TIKTOK_CLIENT_SECRET: fake.clientSecret,
      TIKTOK_AUTHORIZE_URL: fake.authorizeUrl,
      TIKTOK_TOKEN_URL: fake.tokenUrl,
      TIKTOK_API_URL: fake.origin
    })
    fake.state.verifiedPrefixes = [`${herald.origin}/files/`]
  }, 90_000)
  afterAll(async () => {
    await herald?.close()
    await fake?.close()
  })

  it("connects, publishes a video with an allowed privacy level and photos, refuses a level the creator does not allow, and delivers a draft", async () => {
    const [creator] = await herald.connect("tiktok")
    expect(creator).toMatchObject({ platform: "tiktok", username: "alice.makes", name: "Alice" })
    const video = await herald.upload(mp4, "video/mp4", "clip.mp4")

    const allowed = await herald.post({
      accountIds: [creator.id],
      content: "Morning run #fitness",
      mediaIds: [video],
      cover: { offsetMs: 500 },
      tiktok: { privacyLevel: "MUTUAL_FOLLOW_FRIENDS" }
    })
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201)
    const conflict = await herald.post({
      accountIds: [creator.id],
      content: "For followers only",
      mediaIds: [video],
      tiktok: { privacyLevel: "FOLLOWER_OF_CREATOR" }
    })
    expect(conflict.status, JSON.stringify(conflict.body)).toBe(201)
    const photos = [
      await herald.upload(
        await sharp({ create: { width: 1080, height: 1920, channels: 3, background: "#e52" } })
          .jpeg()
          .toBuffer(),
        "image/jpeg",
        "a.jpg"
      ),
      await herald.upload(
        await sharp({ create: { width: 1080, height: 1920, channels: 3, background: "#25e" } })
          .jpeg()
          .toBuffer(),
        "image/jpeg",
        "b.jpg"
      )
    ]
    const photoPost = await herald.post({
      accountIds: [creator.id],
      content: "Two colours\nA photo post.",
      mediaIds: photos,
      tiktok: { privacyLevel: "PUBLIC_TO_EVERYONE" }
    })
    expect(photoPost.status, JSON.stringify(photoPost.body)).toBe(201)

    const done = await herald.until(allowed.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(done.status, `${JSON.stringify(done)}\n${herald.log()}`).toBe("published")
    const refused = await herald.until(conflict.body.post.id, (p) => p.status === "failed")
    expect(refused.targets[0].error).toMatchObject({ code: "tiktok_privacy_conflict", retryable: false })
    expect(refused.targets[0].error.message).toContain("PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY")
    const pictures = await herald.until(
      photoPost.body.post.id,
      (p) => p.status === "published" || p.status === "failed"
    )
    expect(pictures.status, JSON.stringify(pictures)).toBe("published")

    const videoPublish = [...fake.publishes.values()].find((p) => p.kind === "video")!
    expect(videoPublish.sha256).toBe(createHash("sha256").update(mp4).digest("hex"))
    expect(videoPublish.postInfo).toMatchObject({
      privacy_level: "MUTUAL_FOLLOW_FRIENDS",
      title: "Morning run #fitness",
      video_cover_timestamp_ms: 500,
      disable_duet: true
    })
    expect(done.targets[0].url).toBe(`https://www.tiktok.com/@alice.makes/video/${videoPublish.postId}`)
    expect(fake.calls("POST", "/v2/post/publish/video/init/")).toHaveLength(1)
    const photoPublish = [...fake.publishes.values()].find((p) => p.kind === "photo")!
    expect(photoPublish.photos.map((p) => p.type)).toEqual(["image/jpeg", "image/jpeg"])
    expect(pictures.targets[0].url).toBe(`https://www.tiktok.com/@alice.makes/photo/${photoPublish.postId}`)

    // A draft: the video goes to the creator's inbox; the target is published with no URL, the creator posts it in the app.
    const draft = await herald.post({
      accountIds: [creator.id],
      content: "For the creator to finish",
      mediaIds: [video],
      tiktok: { draft: true }
    })
    expect(draft.status, JSON.stringify(draft.body)).toBe(201)
    const delivered = await herald.until(draft.body.post.id, (p) => p.status === "published" || p.status === "failed")
    expect(delivered.status, JSON.stringify(delivered)).toBe("published")
    const inbox = [...fake.publishes.values()].find((p) => p.inbox)!
    expect(inbox).toMatchObject({ status: "SEND_TO_USER_INBOX", postInfo: null })
    expect(inbox.sha256).toBe(createHash("sha256").update(mp4).digest("hex"))
    expect(delivered.targets[0]).toMatchObject({ externalId: inbox.publishId, url: null })

    await herald.stop()
    for (const file of filesUnder(herald.dataDir)) {
      const bytes = readFileSync(file)
      for (const t of fake.issuedTokens()) expect(bytes.includes(t), `${t} in clear in ${file}`).toBe(false)
    }
  }, 120_000)
})
