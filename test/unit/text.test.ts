import { describe, expect, it } from "vitest"
import { checkText, cleanLabel, countUpTo, textProblem, utf8BytesUpTo } from "../../domain/text.ts"

describe("text rules", () => {
  it("refuse NUL and lone surrogates in every kind of text", () => {
    for (const kind of ["prose", "label"] as const) {
      expect(textProblem("a\u0000b", kind)?.reason).toBe("nul")
      expect(textProblem("a\ud800b", kind)?.reason).toBe("lone_surrogate")
      expect(textProblem("a\udc00", kind)?.reason).toBe("lone_surrogate")
      expect(textProblem("😀 ok", kind)).toBeNull()
    }
  })
  it("let prose keep line breaks and tabs, and nothing else invisible to the eye of a terminal", () => {
    expect(textProblem("line one\nline two\r\n\tthree", "prose")).toBeNull()
    expect(textProblem("bell\u0007", "prose")?.reason).toBe("control")
    expect(textProblem("esc\u001b[31m", "prose")?.reason).toBe("control")
    expect(textProblem("שלום \u200f world", "prose")).toBeNull()
  })
  it("keep labels on one line, visible and in their own direction", () => {
    expect(textProblem("Ann\nB", "label")?.reason).toBe("control")
    expect(textProblem("Ann\u001b", "label")?.reason).toBe("control")
    expect(textProblem("Ann\u0085", "label")?.reason).toBe("control")
    expect(textProblem("admin\u202egnp.exe", "label")?.reason).toBe("direction")
    expect(textProblem("a\u2066b", "label")?.reason).toBe("direction")
    expect(textProblem("pay\u200bpal", "label")?.reason).toBe("invisible")
    expect(textProblem("\ufeffAnn", "label")?.reason).toBe("invisible")
    expect(textProblem("Ann\u200d", "label")?.reason).toBe("invisible")
    expect(textProblem("a \u200c b", "label")?.reason).toBe("invisible")
    // Joiners inside a word or an emoji sequence are real text.
    expect(textProblem("👨\u200d👩\u200d👧 family", "label")).toBeNull()
    expect(textProblem("می\u200cخواهم", "label")).toBeNull()
  })
  it("count characters and graphemes up to one past the limit, never further", () => {
    expect(countUpTo("héllo", 10)).toBe(5)
    expect(countUpTo("😀😀😀", 10)).toBe(3)
    expect(countUpTo("👨\u200d👩\u200d👧", 10, "graphemes")).toBe(1)
    expect(countUpTo("x".repeat(1_000_000), 280)).toBe(281)
    expect(countUpTo("x".repeat(1_000_000), 300, "graphemes")).toBe(301)
    expect(utf8BytesUpTo("aé😀", 100)).toBe(1 + 2 + 4)
    expect(utf8BytesUpTo("é".repeat(10_000), 3000)).toBe(3001)
  })
  it("check length after characters, trimming labels, refusing huge strings without counting them", () => {
    expect(checkText("  Ann  ", { kind: "label", max: 3 })).toBeNull()
    expect(checkText("Anna", { kind: "label", max: 3 })).toEqual({ reason: "too_long", limit: 3, unit: "characters" })
    expect(checkText("   ", { kind: "label", max: 3, required: true })?.reason).toBe("empty")
    expect(checkText("x".repeat(50_000_000), { kind: "prose", max: 10_000 })?.reason).toBe("too_long")
    expect(checkText("x".repeat(50_000_000), { kind: "prose", max: 300, unit: "graphemes" })?.reason).toBe("too_long")
  })
  it("clean what a network says about an account instead of refusing it", () => {
    expect(cleanLabel("Ann\r\nSmith\u001b[0m", 100)).toBe("Ann Smith [0m")
    expect(cleanLabel("\u202eevil\u200b name\ud800", 100)).toBe("evil name\ufffd")
    expect(cleanLabel("😀".repeat(10), 3)).toBe("😀😀😀")
    expect(cleanLabel("👨\u200d👩\u200d👧", 10)).toBe("👨\u200d👩\u200d👧")
  })
})
