import { describe, expect, it } from "vitest"
import { networkRules, textLength } from "../../domain/networkRules.ts"

/**
 * Mastodon's StatusLengthValidator: the text in graphemes, every http(s) link as 23 characters
 * whatever its length, and a mention of a remote account (@user@domain) as its username part only.
 */
describe("Mastodon's text counting", () => {
  it("counts graphemes: an emoji with its modifiers once", () => {
    expect(networkRules.mastodon.textCounting).toBe("mastodon")
    expect(textLength("héllo 👍🏽", "mastodon")).toBe(7)
    expect(textLength("日本語", "mastodon")).toBe(3)
  })

  it("counts every http(s) link as 23, short or long; a bare domain is text", () => {
    expect(textLength("https://a.co", "mastodon")).toBe(23)
    expect(textLength(`see https://example.com/${"x".repeat(200)} now`, "mastodon")).toBe(4 + 23 + 4)
    expect(textLength("two http://a.io/1 https://b.io/2", "mastodon")).toBe(4 + 23 + 1 + 23)
    expect(textLength("example.com", "mastodon")).toBe(11)
  })

  it("counts a remote mention as its username, a local one as written", () => {
    expect(textLength("@alice@mastodon.social hi", "mastodon")).toBe("@alice hi".length)
    expect(textLength("@alice hi", "mastodon")).toBe(9)
    expect(textLength("mail me: bob@example.org", "mastodon")).toBe(24)
  })

  it("a 500-character text with a long link fits; 501 does not", () => {
    const link = `https://example.com/${"p".repeat(300)}`
    const text = `${"a".repeat(476)} ${link}`
    expect(textLength(text, "mastodon", 500)).toBe(500)
    expect(textLength(`${text}!`, "mastodon", 500)).toBeGreaterThan(500)
    // Counted as plain characters the same text would look far over.
    expect(textLength(text, "chars", 1000)).toBeGreaterThan(700)
  })
})
