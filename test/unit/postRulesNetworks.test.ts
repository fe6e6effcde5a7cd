import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import type { Platform } from "../../domain/platforms.ts"
import { type CreatePostRequest, decodeCreatePost, networkOptionsOf } from "../../domain/postRequest.ts"
import { fetchingPlatforms, mediaFetchWarning } from "../../domain/mediaReach.ts"
import { checkPost } from "../../domain/postRules.ts"

/** Rules of the networks of part 3 (LinkedIn, YouTube, TikTok, Pinterest) on checkPost directly. */
const NOW = Date.parse("2026-11-21T10:00:00Z")
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
const media = (id: string, type: "image" | "video"): Media => ({
  id,
  workspaceId: "ws_1",
  type,
  mimeType: type === "image" ? "image/jpeg" : "video/mp4",
  filename: id,
  sizeBytes: 1000,
  width: 10,
  height: 10,
  durationMs: type === "video" ? 10_000 : null,
  blobKey: id,
  previewKey: null,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000
})
const accounts = (["linkedin", "youtube", "tiktok", "pinterest", "x", "facebook"] as const).map(account)
const uploads = [media("med_img", "image"), media("med_vid", "video")]
const check = (platform: Platform, fields: Partial<CreatePostRequest>) =>
  checkPost(
    {
      accountIds: [`acc_${platform}`],
      content: "hi",
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
const codeOf = (result: ReturnType<typeof check>) => (Result.isFailure(result) ? result.failure.code : "ok")
const detailsOf = (result: ReturnType<typeof check>) => (Result.isFailure(result) ? result.failure.details : undefined)

describe("rules for LinkedIn, YouTube, TikTok and Pinterest targets", () => {
  it("a LinkedIn poll needs a question: poll.question, or a post text of at most 140 characters that asks it", () => {
    expect(
      codeOf(check("linkedin", { poll: { options: ["a", "b"], durationMinutes: 1440, question: "Which?" } }))
    ).toBe("ok")
    expect(
      codeOf(check("linkedin", { content: "Which one?", poll: { options: ["a", "b"], durationMinutes: 1440 } }))
    ).toBe("ok")
    const long = check("linkedin", { content: "x".repeat(141), poll: { options: ["a", "b"], durationMinutes: 1440 } })
    expect(codeOf(long)).toBe("validation_failed")
    expect(detailsOf(long)).toEqual({ fields: ["poll.question"] })
    expect(codeOf(check("linkedin", { content: "", poll: { options: ["a", "b"], durationMinutes: 1440 } }))).toBe(
      "validation_failed"
    )
    // X asks no question: its text may be long.
    expect(codeOf(check("x", { content: "x".repeat(200), poll: { options: ["a", "b"], durationMinutes: 60 } }))).toBe(
      "ok"
    )
  })

  it("a cover of the kind the network takes: an image for LinkedIn and YouTube, a frame offset for TikTok, either for Pinterest", () => {
    const image = { mediaIds: ["med_vid"], cover: { mediaId: "med_img" } }
    const offset = { mediaIds: ["med_vid"], cover: { offsetMs: 1500 } }
    for (const platform of ["linkedin", "youtube", "pinterest"] as const)
      expect(codeOf(check(platform, image)), platform).toBe("ok")
    for (const platform of ["tiktok", "pinterest"] as const)
      expect(codeOf(check(platform, offset)), platform).toBe("ok")
    const tiktok = check("tiktok", image)
    expect(codeOf(tiktok)).toBe("cover_unsupported")
    expect(detailsOf(tiktok)).toMatchObject({
      accountIds: ["acc_tiktok"],
      reason: "These networks take a frame of the video as cover (cover.offsetMs), not an image."
    })
    expect(codeOf(check("youtube", offset))).toBe("cover_unsupported")
    expect(codeOf(check("linkedin", offset))).toBe("cover_unsupported")
  })
})

describe("the youtube and pinterest objects of a post request", () => {
  it("decode with every bad field named; unknown fields inside them are refused", () => {
    const ok = decodeCreatePost({
      accountIds: ["acc_1"],
      content: "x",
      youtube: { title: "T", privacyStatus: "unlisted", madeForKids: false, tags: ["a b", "c"] },
      pinterest: { boardId: "5497", link: "https://example.org/p", title: "Pin" }
    })
    expect(Result.isSuccess(ok) && ok.success.youtube).toEqual({
      title: "T",
      privacyStatus: "unlisted",
      madeForKids: false,
      tags: ["a b", "c"]
    })
    expect(Result.isSuccess(ok) && networkOptionsOf(ok.success)).toEqual({
      youtube: { title: "T", privacyStatus: "unlisted", madeForKids: false, tags: ["a b", "c"] },
      pinterest: { boardId: "5497", link: "https://example.org/p", title: "Pin" }
    })
    // The shape is the schema's: every malformed field is named, unknown ones included.
    const badShape = decodeCreatePost({
      accountIds: ["acc_1"],
      content: "x",
      youtube: { privacyStatus: "friends", madeForKids: "no", tags: "a", colour: 1 },
      pinterest: { boardId: "a b" }
    })
    expect(
      Result.isFailure(badShape) && [...((badShape.failure.details?.fields as Array<string>) ?? [])].sort()
    ).toEqual(
      ["youtube.colour", "youtube.privacyStatus", "youtube.madeForKids", "youtube.tags", "pinterest.boardId"].sort()
    )
    // The texts are the rules' (over a well-shaped body).
    const badText = decodeCreatePost({
      accountIds: ["acc_1"],
      content: "x",
      youtube: { tags: ["ok", " "] },
      pinterest: { link: "ftp://x", title: "" }
    })
    expect(Result.isFailure(badText) && badText.failure.details?.fields).toEqual([
      "youtube.tags",
      "pinterest.link",
      "pinterest.title"
    ])
  })

  it("YouTube: a title of 1-100 characters without < or >, 500 characters of tags; warnings for a long first line, < > in the text, options without a target", () => {
    expect(codeOf(check("youtube", { mediaIds: ["med_vid"], youtube: { title: "t".repeat(101) } }))).toBe(
      "validation_failed"
    )
    expect(detailsOf(check("youtube", { mediaIds: ["med_vid"], youtube: { title: "a <b>" } }))).toEqual({
      fields: ["youtube.title"]
    })
    expect(
      detailsOf(
        check("youtube", {
          mediaIds: ["med_vid"],
          youtube: { tags: Array.from({ length: 50 }, () => "tag with space") }
        })
      )
    ).toEqual({ fields: ["youtube.tags"] })
    const long = check("youtube", { mediaIds: ["med_vid"], content: `${"w".repeat(120)}\nsecond line <3` })
    expect(Result.isSuccess(long) && long.success.warnings).toEqual([
      "The YouTube title is the text's first line cut to 100 characters; set youtube.title to choose it.",
      "YouTube refuses < and > in descriptions: they are sent as ‹ and ›."
    ])
    const elsewhere = check("x", { youtube: { title: "t" }, pinterest: { boardId: "1" } })
    expect(Result.isSuccess(elsewhere) && elsewhere.success.warnings).toEqual([
      "youtube is ignored: no YouTube account is targeted.",
      "pinterest is ignored: no Pinterest account is targeted."
    ])
  })

  it("Pinterest: title 100 and link 2,048 characters; warnings for no board and a carousel of differing sizes", () => {
    expect(detailsOf(check("pinterest", { mediaIds: ["med_img"], pinterest: { title: "p".repeat(101) } }))).toEqual({
      fields: ["pinterest.title"]
    })
    expect(
      detailsOf(check("pinterest", { mediaIds: ["med_img"], pinterest: { link: `https://e.org/${"l".repeat(2040)}` } }))
    ).toEqual({ fields: ["pinterest.link"] })
    const noBoard = check("pinterest", { mediaIds: ["med_img"] })
    expect(Result.isSuccess(noBoard) && noBoard.success.warnings).toEqual([
      "No pinterest.boardId: the pin goes to the account's first board (GET /accounts/{id}/boards lists them)."
    ])
    const carousel = checkPost(
      {
        accountIds: ["acc_pinterest"],
        content: "c",
        mediaIds: ["med_a", "med_b"],
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
        pinterest: { boardId: "1" },
        facebook: null,
        overrides: {}
      },
      { now: NOW, accounts, media: [media("med_a", "image"), { ...media("med_b", "image"), width: 20 }] }
    )
    expect(Result.isSuccess(carousel) && carousel.success.warnings).toEqual([
      "Pinterest carousels want images of one size: these differ, and Pinterest may refuse or crop them."
    ])
  })
})

describe("Facebook reels", () => {
  const vertical = (id: string, durationMs: number): Media => ({
    ...media(id, "video"),
    width: 1080,
    height: 1920,
    durationMs
  })
  const run = (video: Media | null, fields: Partial<CreatePostRequest> = {}) =>
    checkPost(
      {
        accountIds: ["acc_facebook"],
        content: "r",
        mediaIds: video === null ? ["med_img"] : [video.id],
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
        facebook: { reel: true },
        overrides: {},
        ...fields
      },
      { now: NOW, accounts, media: [...uploads, ...(video === null ? [] : [video])] }
    )
  const warningsOf = (result: ReturnType<typeof run>) =>
    Result.isSuccess(result) ? result.success.warnings : result.failure

  it("facebook.reel without a video is validation_failed naming facebook.reel; with one, or false, the post is valid", () => {
    const photo = run(null)
    expect(codeOf(photo)).toBe("validation_failed")
    expect(detailsOf(photo)).toEqual({ fields: ["facebook.reel"] })
    expect(Result.isFailure(photo) && photo.failure.detail).toContain("A Facebook reel is one video")
    expect(codeOf(run(null, { content: "text only", mediaIds: [] }))).toBe("validation_failed")
    expect(warningsOf(run(vertical("med_reel", 15_000)))).toEqual([])
    expect(codeOf(run(null, { facebook: { reel: false } }))).toBe("ok")
    // An override that takes the video away from Facebook leaves the reel without one.
    expect(
      detailsOf(run(vertical("med_reel", 15_000), { overrides: { facebook: { mediaIds: ["med_img"] } } }))
    ).toEqual({ fields: ["facebook.reel"] })
  })

  it("the reel rules of the table (3-90 s, vertical 9:16) are dry-run warnings, in place of the video length warning; a cover is not sent", () => {
    expect(warningsOf(run(vertical("med_short", 2_000)))).toEqual([
      "Facebook reels run 3-90 s: this video runs 2 s, and Facebook may refuse it."
    ])
    expect(warningsOf(run(vertical("med_long", 95_500)))).toEqual([
      "Facebook reels run 3-90 s: this video runs 95.5 s, and Facebook may refuse it."
    ])
    expect(warningsOf(run({ ...vertical("med_wide", 20_000), width: 1920, height: 1080 }))).toEqual([
      "Facebook recommends vertical 9:16 reels (1080×1920): this video is 1920×1080."
    ])
    expect(warningsOf(run({ ...vertical("med_near", 20_000), width: 720, height: 1278 }))).toEqual([])
    expect(warningsOf(run(vertical("med_cover", 20_000), { cover: { offsetMs: 1000 } }))).toEqual([
      "Herald sends no cover with a Facebook reel: the reel shows the frame Facebook picks."
    ])
    // Not a reel: a Page video, whose length is the table's videoMaxSeconds.
    expect(warningsOf(run(vertical("med_video", 95_500), { facebook: null }))).toEqual([
      "Facebook may refuse videos longer than 90 s."
    ])
  })

  it("decodes from a request, travels in the post's network options, and is ignored with a warning without a Facebook target", () => {
    const ok = decodeCreatePost({ accountIds: ["acc_1"], content: "x", facebook: { reel: true } })
    expect(Result.isSuccess(ok) && networkOptionsOf(ok.success)).toEqual({ facebook: { reel: true } })
    const bad = decodeCreatePost({ accountIds: ["acc_1"], content: "x", facebook: { reel: "yes", story: true } })
    expect(Result.isFailure(bad) && [...((bad.failure.details?.fields as Array<string>) ?? [])].sort()).toEqual([
      "facebook.reel",
      "facebook.story"
    ])
    const elsewhere = check("x", { facebook: { reel: true } })
    expect(Result.isSuccess(elsewhere) && elsewhere.success.warnings).toEqual([
      "facebook is ignored: no Facebook account is targeted."
    ])
  })
})

describe("YouTube thumbnails", () => {
  it("a cover for YouTube is a JPEG or PNG of at most 2 MB", () => {
    const big = { ...media("med_big", "image"), sizeBytes: 2 * 1024 * 1024 + 1 }
    const webp = { ...media("med_webp", "image"), mimeType: "image/webp" }
    const run = (cover: Media) =>
      checkPost(
        {
          accountIds: ["acc_youtube"],
          content: "v",
          mediaIds: ["med_vid"],
          dryRun: false,
          scheduledFor: null,
          requireApproval: null,
          firstComment: null,
          thread: [],
          poll: null,
          cover: { mediaId: cover.id },
          tiktokAiGenerated: false,
          tiktok: null,
          youtube: null,
          pinterest: null,
          facebook: null,
          overrides: {}
        },
        { now: NOW, accounts, media: [...uploads, cover] }
      )
    expect(detailsOf(run(big))).toEqual({ fields: ["cover.mediaId"] })
    expect(detailsOf(run(webp))).toEqual({ fields: ["cover.mediaId"] })
    expect(codeOf(run(media("med_ok", "image")))).toBe("ok")
  })
})

describe("TikTok photos", () => {
  it("take JPEG or WebP only; without a privacy level a dry run says which one goes", () => {
    const png = { ...media("med_png", "image"), mimeType: "image/png" }
    const run = (image: Media, tiktok: CreatePostRequest["tiktok"] = null) =>
      checkPost(
        {
          accountIds: ["acc_tiktok"],
          content: "p",
          mediaIds: [image.id],
          dryRun: false,
          scheduledFor: null,
          requireApproval: null,
          firstComment: null,
          thread: [],
          poll: null,
          cover: null,
          tiktokAiGenerated: false,
          tiktok,
          youtube: null,
          pinterest: null,
          facebook: null,
          overrides: {}
        },
        { now: NOW, accounts, media: [image] }
      )
    expect(detailsOf(run(png))).toMatchObject({ fields: ["mediaIds"], platform: "tiktok" })
    const jpeg = run(media("med_jpg", "image"))
    expect(Result.isSuccess(jpeg) && jpeg.success.warnings).toEqual([
      "No tiktok.privacyLevel: the post goes out with the most public level the creator allows when it is published."
    ])
    const chosen = run(media("med_jpg", "image"), { privacyLevel: "SELF_ONLY" })
    expect(Result.isSuccess(chosen) && chosen.success.warnings).toEqual([])
  })
})

describe("which targets download the media by URL", () => {
  it("TikTok for photo posts (its videos are uploaded), the Meta networks for any media; the dry-run warning names them", () => {
    const photos = [{ type: "image" }, { type: "image" }]
    const video = [{ type: "video" }]
    expect(fetchingPlatforms(["tiktok", "x"], photos)).toEqual(["tiktok"])
    expect(fetchingPlatforms(["tiktok", "instagram"], video)).toEqual(["instagram"])
    expect(fetchingPlatforms(["tiktok"], [])).toEqual([])
    expect(mediaFetchWarning(fetchingPlatforms(["tiktok"], photos), "http://127.0.0.1:8080/files/a.jpg")).toContain(
      "TikTok download media from Herald by URL"
    )
    expect(mediaFetchWarning(fetchingPlatforms(["tiktok"], video), "http://127.0.0.1:8080/files/a.mp4")).toBeNull()
  })
})
