import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import { contentFor, type Overrides, sourceField } from "../../domain/overrides.ts"
import type { Platform } from "../../domain/platforms.ts"
import type { CreatePostRequest } from "../../domain/postRequest.ts"
import { checkPost } from "../../domain/postRules.ts"

const NOW = Date.parse("2026-11-24T10:00:00Z")
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
const accounts = (["x", "linkedin", "instagram", "tiktok", "bluesky", "threads"] as const).map(account)
const uploads = [
  media("med_1", "image"),
  media("med_2", "image"),
  media("med_3", "image"),
  media("med_4", "image"),
  media("med_5", "image"),
  media("med_vid", "video"),
  { ...media("med_big", "image"), sizeBytes: 9 * 1024 * 1024 },
  { ...media("med_short", "video"), durationMs: 2000 }
]
const LONG = `${"A long LinkedIn text. ".repeat(20)}The end.`

const check = (platforms: ReadonlyArray<Platform>, fields: Partial<CreatePostRequest>) =>
  checkPost(
    {
      accountIds: platforms.map((p) => `acc_${p}`),
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
const planned = (result: ReturnType<typeof check>) => {
  if (Result.isFailure(result)) throw new Error(`expected success, got ${result.failure.code}`)
  return Object.fromEntries(
    result.success.planned.map((t) => [
      t.account.platform,
      { content: t.content, mediaIds: t.mediaIds, thread: t.thread, firstComment: t.firstComment }
    ])
  )
}

describe("contentFor", () => {
  const post = { content: "base", mediaIds: ["med_1"], thread: ["two"], firstComment: "link" }
  it("gives the post's own fields without an override, and each overridden field from the override", () => {
    expect(contentFor({ ...post, overrides: {} }, "x")).toEqual(post)
    const overrides: Overrides = { x: { content: "short" }, linkedin: { mediaIds: [], thread: [], firstComment: null } }
    expect(contentFor({ ...post, overrides }, "x")).toEqual({ ...post, content: "short" })
    expect(contentFor({ ...post, overrides }, "linkedin")).toEqual({
      content: "base",
      mediaIds: [],
      thread: [],
      firstComment: null
    })
    expect(contentFor({ ...post, overrides }, "bluesky")).toEqual(post)
  })

  it("names the field a value comes from", () => {
    const overrides: Overrides = { x: { content: "short" } }
    expect(sourceField(overrides, "x", "content")).toBe("overrides.x.content")
    expect(sourceField(overrides, "x", "thread")).toBe("thread")
    expect(sourceField(overrides, "linkedin", "content")).toBe("content")
  })
})

describe("checkPost with overrides: each target on its final content", () => {
  it("a long text for LinkedIn and a short one for X passes; without X's override X refuses it, naming content", () => {
    const both = check(["x", "linkedin"], { content: LONG, overrides: { x: { content: "Short for X" } } })
    expect(planned(both)).toMatchObject({ x: { content: "Short for X" }, linkedin: { content: LONG } })
    const noOverride = check(["x", "linkedin"], { content: LONG })
    expect(codeOf(noOverride)).toBe("validation_failed")
    expect(detailsOf(noOverride)).toMatchObject({ fields: ["content"], platform: "x", limit: 280 })
  })

  it("an override too long for its network names overrides.<platform>.<field>", () => {
    const tooLong = check(["x", "linkedin"], { content: "ok", overrides: { x: { content: "x".repeat(281) } } })
    expect(detailsOf(tooLong)).toMatchObject({
      fields: ["overrides.x.content"],
      accountId: "acc_x",
      platform: "x",
      limit: 280
    })
    const comment = check(["linkedin"], { content: "ok", overrides: { linkedin: { firstComment: "c".repeat(1251) } } })
    expect(detailsOf(comment)).toMatchObject({ fields: ["overrides.linkedin.firstComment"], platform: "linkedin" })
    const reply = check(["x"], { content: "ok", overrides: { x: { thread: ["fine", "y".repeat(281)] } } })
    expect(detailsOf(reply)).toMatchObject({ fields: ["overrides.x.thread[1]"], platform: "x" })
    const images = check(["x"], { overrides: { x: { mediaIds: ["med_1", "med_2", "med_3", "med_4", "med_5"] } } })
    expect(detailsOf(images)).toMatchObject({ fields: ["overrides.x.mediaIds"], platform: "x", maxImages: 4 })
  })

  it("a thread for X only: LinkedIn's override takes it away; a thread only LinkedIn would get is thread_unsupported for LinkedIn", () => {
    const ok = check(["x", "linkedin"], { thread: ["two", "three"], overrides: { linkedin: { thread: [] } } })
    expect(planned(ok)).toMatchObject({ x: { thread: ["two", "three"] }, linkedin: { thread: [] } })
    const refused = check(["x", "linkedin"], { overrides: { linkedin: { thread: ["more"] } } })
    expect(codeOf(refused)).toBe("thread_unsupported")
    expect(detailsOf(refused)).toEqual({ accountIds: ["acc_linkedin"], platforms: ["linkedin"] })
  })

  it("a first comment taken away for TikTok (null) lifts first_comment_unsupported; one given only to TikTok is refused", () => {
    const base = { mediaIds: ["med_vid"], firstComment: "https://example.org" }
    expect(codeOf(check(["linkedin", "tiktok"], base))).toBe("first_comment_unsupported")
    const ok = check(["linkedin", "tiktok"], { ...base, overrides: { tiktok: { firstComment: null } } })
    expect(planned(ok)).toMatchObject({
      linkedin: { firstComment: "https://example.org" },
      tiktok: { firstComment: null }
    })
    expect(
      codeOf(check(["linkedin", "tiktok"], { mediaIds: ["med_vid"], overrides: { tiktok: { firstComment: "link" } } }))
    ).toBe("first_comment_unsupported")
  })

  it("media per network: X posts text only while Instagram has its image; Instagram without media is media_required", () => {
    const ok = check(["x", "instagram"], { mediaIds: ["med_1"], overrides: { x: { mediaIds: [] } } })
    expect(planned(ok)).toMatchObject({ x: { mediaIds: [] }, instagram: { mediaIds: ["med_1"] } })
    const bare = check(["x", "instagram"], { mediaIds: ["med_1"], overrides: { instagram: { mediaIds: [] } } })
    expect(codeOf(bare)).toBe("media_required")
    expect(detailsOf(bare)).toEqual({ accountIds: ["acc_instagram"], platforms: ["instagram"] })
    expect(codeOf(check(["instagram"], { content: "", overrides: { instagram: { mediaIds: ["med_1"] } } }))).toBe("ok")
  })

  it("a target left with nothing to post names the fields; an override's unknown media is media_not_found", () => {
    const empty = check(["x", "linkedin"], { content: "hi", overrides: { x: { content: "" } } })
    expect(codeOf(empty)).toBe("validation_failed")
    expect(detailsOf(empty)).toEqual({ fields: ["overrides.x.content", "mediaIds"] })
    const missing = check(["x"], { overrides: { x: { mediaIds: ["med_gone"] } } })
    expect(codeOf(missing)).toBe("media_not_found")
    expect(detailsOf(missing)).toEqual({ mediaIds: ["med_gone"] })
  })

  it("an override for a network not targeted is ignored with a warning and not kept", () => {
    const result = check(["x"], { overrides: { x: { content: "for X" }, linkedin: { content: "nobody" } } })
    expect(Result.isSuccess(result) && result.success.warnings).toEqual([
      "overrides.linkedin is ignored: no LinkedIn account is targeted."
    ])
    expect(Result.isSuccess(result) && result.success.overrides).toEqual({ x: { content: "for X" } })
  })

  it("a poll with media on one target only is refused for that target", () => {
    const poll = { options: ["a", "b"], durationMinutes: 1440 }
    const result = check(["x", "linkedin"], {
      content: "Which?",
      poll,
      overrides: { linkedin: { mediaIds: ["med_1"] } }
    })
    expect(codeOf(result)).toBe("poll_unsupported")
    expect(detailsOf(result)).toMatchObject({ accountIds: ["acc_linkedin"] })
  })

  it("media warnings belong to the targets whose own media break their network's limits", () => {
    const big = check(["x", "threads"], { mediaIds: ["med_big"] })
    expect(Result.isSuccess(big) && big.success.planned.map((t) => t.warnings)).toEqual([
      [],
      ["Threads refuses images larger than 8 MB."]
    ])
    const spared = check(["x", "threads"], { mediaIds: ["med_big"], overrides: { threads: { mediaIds: ["med_1"] } } })
    expect(Result.isSuccess(spared) && spared.success.warnings).toEqual([])
    const short = check(["x", "linkedin"], { mediaIds: ["med_short"] })
    expect(Result.isSuccess(short) && short.success.planned.map((t) => t.warnings)).toEqual([
      [],
      ["LinkedIn refuses videos shorter than 3 s."]
    ])
  })
})
