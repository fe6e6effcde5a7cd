import { describe, expect, it } from "vitest"
import { approvalVersion, textOnNetwork } from "../../domain/approval.ts"
import type { Post } from "../../domain/post.ts"

describe("how the approval page shows a text on a network", () => {
  it("a text within the network's limit is shown whole", () => {
    expect(textOnNetwork("hello", "x")).toEqual({ length: 5, limit: 280, fits: true, shown: "hello", rest: "" })
  })

  it("past X's limit the cut falls where X stops counting, by X's weights (CJK counts double), never inside a grapheme", () => {
    const text = "あ".repeat(150)
    const on = textOnNetwork(text, "x")
    expect(on.fits).toBe(false)
    expect(on.length).toBe(300)
    expect(on.shown).toBe("あ".repeat(140))
    expect(on.shown + on.rest).toBe(text)
    const emoji = textOnNetwork(`${"a".repeat(299)}👍🏽 tail`, "bluesky")
    expect(emoji.shown).toBe("a".repeat(299) + "👍🏽")
    expect(emoji.rest).toBe(" tail")
  })
})

describe("the version an approval is bound to", () => {
  const post = {
    id: "post_01",
    content: "hi",
    mediaIds: [],
    firstComment: null,
    thread: [],
    poll: null,
    cover: null,
    scheduledFor: null,
    targets: [{ accountId: "acc_1" }],
    tiktokAiGenerated: false,
    networkOptions: {},
    overrides: {},
    updatedAt: 1
  } as unknown as Post
  it("changes with anything the person sees, not with bookkeeping", () => {
    const v = approvalVersion(post)
    expect(v).toMatch(/^[0-9a-f]{16}$/)
    expect(approvalVersion({ ...post, updatedAt: 2 })).toBe(v)
    expect(approvalVersion({ ...post, content: "hi!" })).not.toBe(v)
    expect(approvalVersion({ ...post, scheduledFor: 5 })).not.toBe(v)
    expect(approvalVersion({ ...post, overrides: { x: { content: "other" } } })).not.toBe(v)
  })
})
