import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import { type CreatePostRequest, decodeCreatePost } from "../../domain/postRequest.ts"
import { checkPost } from "../../domain/postRules.ts"
import { redditSubmission } from "../../domain/redditPost.ts"

/** What a post becomes on Reddit, and what checkPost refuses of a Reddit target whatever its subreddit. */
const NOW = Date.parse("2026-11-26T10:00:00Z")
const reddit: Account = {
  id: "acc_rd",
  workspaceId: "ws_1",
  platform: "reddit",
  name: "Alice",
  username: "alice_bakes",
  avatarUrl: null,
  status: "connected",
  connectedAt: NOW,
  externalId: "1w72dnj4"
}
const image: Media = {
  id: "med_img",
  workspaceId: "ws_1",
  type: "image",
  mimeType: "image/png",
  filename: "a.png",
  sizeBytes: 1000,
  width: 10,
  height: 10,
  durationMs: null,
  blobKey: "k",
  previewKey: null,
  createdAt: NOW,
  expiresAt: NOW + 86_400_000
}
const check = (fields: Partial<CreatePostRequest>) =>
  checkPost(
    {
      accountIds: ["acc_rd"],
      content: "Sourdough\nDay three",
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
    { now: NOW, accounts: [reddit], media: [image] }
  )
const failure = (result: ReturnType<typeof check>) =>
  Result.isFailure(result)
    ? { code: result.failure.code, details: result.failure.details, detail: result.failure.detail }
    : null

describe("a Reddit submission", () => {
  it("takes the text's first line as title and the rest as body, unless reddit.title names one", () => {
    expect(redditSubmission("Sourdough\n\nDay three\nmore", [], { subreddit: "r/Baking" })).toEqual({
      subreddit: "Baking",
      kind: "self",
      title: "Sourdough",
      body: "Day three\nmore",
      url: null,
      flairId: null,
      titleFromText: true
    })
    expect(redditSubmission("Sourdough\nDay three", [], { subreddit: "Baking", title: "Bread" })).toMatchObject({
      title: "Bread",
      body: "Sourdough\nDay three",
      titleFromText: false
    })
  })

  it("is an image post with an image, a link post with reddit.url, else a text post; reddit.kind wins", () => {
    expect(redditSubmission("t", [image], { subreddit: "a1" }).kind).toBe("image")
    expect(redditSubmission("t", [], { subreddit: "a1", url: "https://x.example" }).kind).toBe("link")
    expect(redditSubmission("t", [], { subreddit: "a1", kind: "self", url: "https://x.example" }).kind).toBe("self")
  })
})

describe("checkPost for a Reddit target", () => {
  it("needs a subreddit", () => {
    expect(failure(check({}))).toMatchObject({
      code: "validation_failed",
      details: { fields: ["reddit.subreddit"], accountId: "acc_rd", platform: "reddit" }
    })
    expect(Result.isSuccess(check({ reddit: { subreddit: "Baking" } }))).toBe(true)
  })

  it("needs a title of at most 300 characters, named by the field it comes from", () => {
    expect(failure(check({ reddit: { subreddit: "Baking" }, content: `${"x".repeat(301)}\nbody` }))).toMatchObject({
      details: { fields: ["content"] }
    })
    expect(failure(check({ reddit: { subreddit: "Baking", title: "x".repeat(301) } }))?.details).toMatchObject({
      fields: ["reddit.title"]
    })
  })

  it("a link post needs reddit.url, an image post one image, a text or link post no media", () => {
    expect(failure(check({ reddit: { subreddit: "Baking", kind: "link" } }))?.details).toMatchObject({
      fields: ["reddit.url"]
    })
    expect(failure(check({ reddit: { subreddit: "Baking", kind: "image" } }))?.details).toMatchObject({
      fields: ["mediaIds"]
    })
    expect(
      failure(check({ reddit: { subreddit: "Baking", url: "https://x.example" }, mediaIds: ["med_img"] }))
    ).toBeNull()
    expect(failure(check({ reddit: { subreddit: "Baking", kind: "self" }, mediaIds: ["med_img"] }))?.detail).toContain(
      "A Reddit text post carries no media"
    )
  })

  it("warns that a link or image post's text after the title is not posted", () => {
    const link = check({ reddit: { subreddit: "Baking", url: "https://x.example" } })
    expect(Result.isSuccess(link) && link.success.warnings).toContain(
      "A Reddit link post has a title and no text: the text after the title is not posted (put it in firstComment)."
    )
  })

  it("the contract refuses a malformed subreddit name or a link that is not http(s)", () => {
    const base = { accountIds: ["acc_rd"], content: "x" }
    expect(Result.isFailure(decodeCreatePost({ ...base, reddit: { subreddit: "no spaces" } }))).toBe(true)
    expect(Result.isFailure(decodeCreatePost({ ...base, reddit: { subreddit: "Baking", url: "ftp://x" } }))).toBe(true)
    const ok = decodeCreatePost({
      ...base,
      reddit: { subreddit: "r/Baking", title: "T", flairId: "f-1", kind: "self" }
    })
    expect(Result.isSuccess(ok) && ok.success.reddit).toEqual({
      subreddit: "r/Baking",
      title: "T",
      flairId: "f-1",
      kind: "self"
    })
  })
})
