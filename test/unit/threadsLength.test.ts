import { describe, expect, it } from "vitest"
import { networkRules, textLength } from "../../domain/networkRules.ts"

/** Threads: "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes." (Threads API, Posts). */
describe("Threads' text counting", () => {
  it("counts characters, and each emoji as its UTF-8 bytes", () => {
    expect(networkRules.threads.textCounting).toBe("threads")
    expect(textLength("héllo", "threads")).toBe(5)
    expect(textLength("日本語", "threads")).toBe(3)
    expect(textLength("🍞", "threads")).toBe(4)
    expect(textLength("👍🏽", "threads")).toBe(8)
    expect(textLength("bread 🍞!", "threads")).toBe(11)
  })

  it("a text of 125 emojis is 500 and passes; one more character is over", () => {
    const full = "🍞".repeat(125)
    expect(textLength(full, "threads", 500)).toBe(500)
    expect(textLength(`${full}a`, "threads", 500)).toBeGreaterThan(500)
    // The same text counted as characters would look far under the limit.
    expect(textLength(`${full}a`, "chars", 500)).toBe(126)
  })
})
