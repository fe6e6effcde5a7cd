import { describe, expect, it } from "vitest"
import { editedBody } from "../../domain/edit.ts"
import type { Post } from "../../domain/post.ts"

/** An edit is checked as the create it amounts to: every per-network object of the post must be in it. */
const NOW = Date.parse("2026-11-26T10:00:00Z")
const post = {
  targets: [{ accountId: "acc_ig" }],
  content: "",
  mediaIds: ["med_1"],
  firstComment: null,
  thread: [],
  poll: null,
  cover: null,
  tiktokAiGenerated: false,
  networkOptions: {
    instagram: { story: true },
    tiktok: { draft: true },
    mastodon: { visibility: "unlisted" },
    discord: { threadName: "Launch" },
    facebook: { reel: true }
  },
  overrides: {},
  scheduledFor: null
} as unknown as Post

describe("an edit keeps the post's per-network objects", () => {
  it("instagram, tiktok, mastodon, discord and facebook ride into the edited create body unless the edit replaces them", () => {
    const body = editedBody(post, { content: "New" }, NOW)
    expect(body).toMatchObject({
      content: "New",
      instagram: { story: true },
      tiktok: { draft: true },
      mastodon: { visibility: "unlisted" },
      discord: { threadName: "Launch" },
      facebook: { reel: true }
    })
    expect(editedBody(post, { instagram: null }, NOW).instagram).toBeNull()
  })
})
