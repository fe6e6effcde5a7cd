import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import type { Platform } from "../../domain/platforms.ts"
import { type CreatePostRequest, decodeCreatePost } from "../../domain/postRequest.ts"
import { checkPost } from "../../domain/postRules.ts"

/** Instagram stories and TikTok drafts on checkPost: what is refused, and what is only advised. */
const NOW = Date.parse("2026-11-26T10:00:00Z")
const account = (platform: Platform): Account => ({
  id: `acc_${platform}`,
  workspaceId: "ws_1",
  platform,
  name: platform,
  username: platform,
  avatarUrl: null,
  status: "connected",
  connectedAt: NOW,
  externalId: `${platform}-1`
})
const media = (id: string, type: "image" | "video", width: number, height: number, durationMs?: number): Media => ({
  id,
  workspaceId: "ws_1",
  type,
  mimeType: type === "image" ? "image/jpeg" : "video/mp4",
  filename: id,
  sizeBytes: 1000,
  width,
  height,
  durationMs: type === "video" ? (durationMs ?? 10_000) : null,
  blobKey: id,
  previewKey: null,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000
})
const accounts = (["instagram", "tiktok", "x"] as const).map(account)
const uploads = [
  media("med_tall", "image", 1080, 1920),
  media("med_feed", "image", 1080, 1350),
  media("med_vid", "video", 1080, 1920, 15_000),
  media("med_long", "video", 1080, 1920, 75_000),
  media("med_wide", "video", 1920, 1080, 20_000)
]
const check = (platforms: ReadonlyArray<Platform>, fields: Partial<CreatePostRequest>) =>
  checkPost(
    {
      accountIds: platforms.map((p) => `acc_${p}`),
      content: "",
      mediaIds: [],
      dryRun: false,
      scheduledFor: null,
      requireApproval: null,
      firstComment: null,
      thread: [],
      poll: null,
      cover: null,
      tiktokAiGenerated: false,
      tiktok: null,
      youtube: null,
      pinterest: null,
      facebook: null,
      overrides: {},
      ...fields
    },
    { now: NOW, accounts, media: uploads }
  )
const failure = (result: ReturnType<typeof check>) =>
  Result.isFailure(result)
    ? { code: result.failure.code, details: result.failure.details, detail: result.failure.detail }
    : null
const warningsOf = (result: ReturnType<typeof check>) => (Result.isSuccess(result) ? result.success.warnings : null)

describe("Instagram stories (instagram.story)", () => {
  const story = { instagram: { story: true } }
  it("a vertical image or a 15 s video is a story with no advice; a 9:16 image the feed refuses is taken", () => {
    expect(warningsOf(check(["instagram"], { ...story, mediaIds: ["med_tall"] }))).toEqual([])
    expect(warningsOf(check(["instagram"], { ...story, mediaIds: ["med_vid"] }))).toEqual([])
    // The same image as a feed post is outside 4:5-1.91:1.
    expect(failure(check(["instagram"], { mediaIds: ["med_tall"] }))?.code).toBe("validation_failed")
  })

  it("a carousel is refused naming instagram.story and the media field the Instagram target uses", () => {
    const two = failure(check(["instagram"], { ...story, mediaIds: ["med_tall", "med_vid"] }))
    expect(two).toMatchObject({
      code: "validation_failed",
      details: { fields: ["instagram.story", "mediaIds"], accountIds: ["acc_instagram"] }
    })
    expect(two?.detail).toContain("An Instagram story is one image or one video")
    const overridden = failure(
      check(["instagram", "x"], {
        ...story,
        content: "hi",
        mediaIds: ["med_tall"],
        overrides: { instagram: { mediaIds: ["med_tall", "med_feed"] } }
      })
    )
    expect(overridden?.details).toMatchObject({ fields: ["instagram.story", "overrides.instagram.mediaIds"] })
  })

  it("a first comment is refused; null for Instagram alone lets the other networks keep theirs", () => {
    const commented = failure(check(["instagram"], { ...story, mediaIds: ["med_tall"], firstComment: "link" }))
    expect(commented).toMatchObject({ details: { fields: ["instagram.story", "firstComment"] } })
    expect(commented?.detail).toContain("Instagram stories take no comments")
    const kept = check(["instagram", "x"], {
      ...story,
      content: "hi",
      mediaIds: ["med_tall"],
      firstComment: "link",
      overrides: { instagram: { firstComment: null } }
    })
    expect(Result.isSuccess(kept)).toBe(true)
  })

  it("advised, not refused: the caption is not shown, no cover is sent, a 75 s video and a wide one may be refused or fitted", () => {
    const captioned = warningsOf(check(["instagram"], { ...story, content: "Hello", mediaIds: ["med_tall"] }))
    expect(captioned).toEqual([
      'Instagram stories show no caption: the text is not sent to Instagram (overrides.instagram.content: "" says so).'
    ])
    expect(warningsOf(check(["instagram"], { ...story, mediaIds: ["med_vid"], cover: { offsetMs: 10 } }))).toEqual([
      "Instagram stories take no cover: Herald sends none."
    ])
    expect(warningsOf(check(["instagram"], { ...story, mediaIds: ["med_long"] }))).toEqual([
      "Instagram story videos run 3-60 s: this one runs 75 s, and Instagram may refuse it."
    ])
    expect(warningsOf(check(["instagram"], { ...story, mediaIds: ["med_wide"] }))).toEqual([
      "Instagram recommends vertical 9:16 stories (1080×1920): this video is 1920×1080, and Instagram fits it inside the frame."
    ])
  })

  it("instagram without an Instagram target is ignored with a warning; the request decodes instagram.story", () => {
    expect(warningsOf(check(["x"], { ...story, content: "hi" }))).toEqual([
      "instagram is ignored: no Instagram account is targeted."
    ])
    const decoded = decodeCreatePost({
      accountIds: ["acc_instagram"],
      mediaIds: ["med_tall"],
      instagram: story.instagram
    })
    expect(Result.isSuccess(decoded) && decoded.success.instagram).toEqual({ story: true })
    const bad = decodeCreatePost({ accountIds: ["acc_instagram"], mediaIds: ["med_tall"], instagram: { story: "yes" } })
    expect(Result.isFailure(bad) && bad.failure.code).toBe("validation_failed")
  })
})

describe("TikTok drafts (tiktok.draft)", () => {
  const draft = { tiktok: { draft: true } }
  const delivered =
    "The TikTok video goes to the creator's TikTok inbox as a draft: they finish and post it in the app. Herald marks the target published, with no URL, once TikTok has delivered it."
  it("one video is a draft, said as such; no privacy-level advice (the creator chooses in the app)", () => {
    expect(warningsOf(check(["tiktok"], { ...draft, mediaIds: ["med_vid"] }))).toEqual([delivered])
    expect(warningsOf(check(["tiktok"], { mediaIds: ["med_vid"] }))).toEqual([
      "No tiktok.privacyLevel: the post goes out with the most public level the creator allows when it is published."
    ])
  })

  it("photos, or no video, are refused naming tiktok.draft", () => {
    const photos = failure(check(["tiktok"], { ...draft, mediaIds: ["med_tall"] }))
    expect(photos).toMatchObject({
      code: "validation_failed",
      details: { fields: ["tiktok.draft", "mediaIds"], accountIds: ["acc_tiktok"] }
    })
    expect(photos?.detail).toContain("A TikTok draft is one video")
  })

  it("the caption and the direct-post settings are ignored with a warning; branded private content is no conflict in a draft", () => {
    const warned = warningsOf(
      check(["tiktok"], {
        tiktok: { draft: true, privacyLevel: "SELF_ONLY", brandedContent: true },
        tiktokAiGenerated: true,
        content: "Caption",
        mediaIds: ["med_vid"],
        cover: { offsetMs: 100 }
      })
    )
    expect(warned).toEqual([
      delivered,
      "A TikTok draft carries no caption: the creator writes it in the app.",
      "A TikTok draft ignores tiktok.privacyLevel, tiktok.brandedContent, tiktokAiGenerated, cover: the creator sets these in the app."
    ])
    // The same settings in a direct post conflict.
    expect(
      failure(
        check(["tiktok"], {
          tiktok: { privacyLevel: "SELF_ONLY", brandedContent: true },
          mediaIds: ["med_vid"]
        })
      )?.code
    ).toBe("tiktok_privacy_conflict")
  })
})
