import { describe, expect, it } from "vitest"
import { textLength } from "../../../domain/networkRules.ts"

describe("X's weighted length (twitter-text)", () => {
  it("counts as X does: links 23 with or without a scheme, trailing punctuation outside the link, CJK and emoji 2", () => {
    expect(textLength("visit example.com", "x-weighted")).toBe(6 + 23)
    expect(textLength("see https://example.org.", "x-weighted")).toBe(4 + 23 + 1)
    expect(textLength("日本", "x-weighted")).toBe(4)
    expect(textLength("👨‍👩‍👧 ok", "x-weighted")).toBe(2 + 3)
    expect(textLength("café", "x-weighted")).toBe(4)
  })

  it("is exact at the limit", () => {
    expect(textLength("a".repeat(280), "x-weighted", 280)).toBe(280)
    expect(textLength(`${"a ".repeat(139)}日`, "x-weighted", 280)).toBe(280)
    expect(textLength(`${"a ".repeat(140)}日`, "x-weighted", 280)).toBe(282)
  })

  it("stops counting a long text once it is past the limit, and still sees links that start late", () => {
    const long = "word ".repeat(12_000)
    expect(textLength(long, "x-weighted", 280)).toBeGreaterThan(280)
    expect(textLength(long, "x-weighted")).toBe(60_000)
    // 13 long links and 12 spaces weigh 311: past 280, though the text is far longer than the first prefix parsed.
    const links = Array.from({ length: 13 }, (_, i) => `https://example.org/${String(i).padEnd(180, "x")}`).join(" ")
    expect(textLength(links, "x-weighted")).toBe(13 * 23 + 12)
    expect(textLength(links, "x-weighted", 280)).toBeGreaterThan(280)
    expect(textLength(links.slice(0, links.lastIndexOf(" https")), "x-weighted", 300)).toBe(12 * 23 + 11)
  })
})
