/**
 * The text rules for everything that reaches Herald from outside: request fields (REST, MCP, pages)
 * and what networks say about an account. Two kinds of text:
 * - prose (post content, comments, thread replies, poll options, reasons): any printable text, with
 *   tabs and line breaks;
 * - labels (names, e-mail addresses, file names, handles): one line, nothing invisible and nothing
 *   that turns the text's direction (Trojan Source, CVE-2021-42574; spoofed names).
 * Both refuse NUL (PostgreSQL cannot store it) and lone surrogates (they would be stored as U+FFFD:
 * a text that is not what was sent). Lengths are counted by iterating, stopping one past the limit,
 * after a guard on the string's size, so a huge field never becomes a huge array.
 */

export type TextKind = "prose" | "label"

/** Why a text is refused; `too_long` carries the limit it broke. */
export type TextProblem =
  | { readonly reason: "nul" | "lone_surrogate" | "control" | "invisible" | "direction" | "empty" }
  | { readonly reason: "too_long"; readonly limit: number; readonly unit: LengthUnit }

export type LengthUnit = "characters" | "graphemes" | "bytes"

// NUL is named apart: it is the one PostgreSQL refuses outright.
const controlInProse = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/
const controlInLabel = /[\u0001-\u001f\u007f-\u009f\u2028\u2029]/
// Bidirectional embeddings, overrides, isolates and marks, and the Arabic letter mark.
const direction = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/
// Zero-width and invisible format characters, soft hyphen, Mongolian vowel separator, invisible math operators, BOM.
const invisible = /[\u00ad\u180e\u200b\u2060-\u2064\ufeff]/
// ZWNJ and ZWJ are real parts of some scripts (Persian, Indic) and of emoji sequences: allowed inside a word only.
const joiner = /[\u200c\u200d]/g
const anyJoiner = /[\u200c\u200d]/
// biome-ignore lint/suspicious/noMisleadingCharacterClass: one code point per class member is meant; sequences are matched elsewhere
const wordPart = /[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]/u

const joinersStandAlone = (text: string): boolean => {
  if (!anyJoiner.test(text)) return false // most labels: no iterator made
  for (const m of text.matchAll(joiner)) {
    const i = m.index
    if (i === 0 || i + 1 >= text.length) return true
    // The code point that ends just before the joiner (two units back when it is a surrogate pair).
    const low = text.charCodeAt(i - 1)
    const before = text.codePointAt(i >= 2 && low >= 0xdc00 && low <= 0xdfff ? i - 2 : i - 1)
    const after = text.codePointAt(i + 1)
    if (before === undefined || after === undefined) return true
    if (!wordPart.test(String.fromCodePoint(before)) || !wordPart.test(String.fromCodePoint(after))) return true
  }
  return false
}

/** The first rule a text breaks (length aside), or null. */
export const textProblem = (text: string, kind: TextKind): TextProblem | null => {
  if (text.includes("\u0000")) return { reason: "nul" }
  if (!text.isWellFormed()) return { reason: "lone_surrogate" }
  if (kind === "prose") return controlInProse.test(text) ? { reason: "control" } : null
  if (controlInLabel.test(text)) return { reason: "control" }
  if (direction.test(text)) return { reason: "direction" }
  if (invisible.test(text) || joinersStandAlone(text)) return { reason: "invisible" }
  return null
}

export const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/**
 * Counts a text's characters (code points) or graphemes, stopping at `limit + 1`: the answer is
 * exact up to the limit and `limit + 1` means "over it". No array of the text is ever made.
 */
export const countUpTo = (text: string, limit: number, unit: Exclude<LengthUnit, "bytes"> = "characters"): number =>
  unit === "characters" ? codePoints(text, limit) : graphemes(text, limit)

const codePoints = (text: string, limit: number): number => {
  let n = 0
  for (let i = 0; i < text.length && n <= limit; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}

const graphemes = (text: string, limit: number): number => {
  let n = 0
  for (const _ of segmenter.segment(text)) if (++n > limit) break
  return n
}

/** UTF-8 length of a text, stopping at `limit + 1`. */
export const utf8BytesUpTo = (text: string, limit: number): number => {
  let n = 0
  for (let i = 0; i < text.length && n <= limit; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return Math.min(n, limit + 1)
}

/**
 * The most UTF-16 code units any text field may hold, whatever the network: Facebook's 63,206
 * characters, each up to two units. Beyond it a text is too long without counting anything.
 */
export const maxTextUnits = 128 * 1024

export interface TextRule {
  readonly kind: TextKind
  /** Longest allowed, in `unit`. */
  readonly max: number
  readonly unit?: Exclude<LengthUnit, "bytes">
  /** An empty (or, for labels, all-blank) text is refused. */
  readonly required?: boolean
}

/** Checks one text against a rule: its characters, then its length. Labels are checked trimmed. */
export const checkText = (text: string, rule: TextRule): TextProblem | null => {
  const unit = rule.unit ?? "characters"
  // A character is at most two code units (plus room for a label's blanks); a grapheme has no bound but the global one.
  const guard = unit === "characters" ? Math.min(maxTextUnits, rule.max * 2 + 64) : maxTextUnits
  if (text.length > guard) return { reason: "too_long", limit: rule.max, unit }
  const problem = textProblem(text, rule.kind)
  if (problem !== null) return problem
  const value = rule.kind === "label" ? text.trim() : text
  if (rule.required === true && value.trim() === "") return { reason: "empty" }
  if (countUpTo(value, rule.max, unit) > rule.max) return { reason: "too_long", limit: rule.max, unit }
  return null
}

/** A sentence saying what is wrong with field `field`. */
export const describeTextProblem = (field: string, problem: TextProblem): string => {
  switch (problem.reason) {
    case "nul":
      return `${field} contains a NUL character.`
    case "lone_surrogate":
      return `${field} is not valid Unicode (it contains a lone surrogate).`
    case "control":
      return `${field} contains control characters.`
    case "direction":
      return `${field} contains text-direction characters.`
    case "invisible":
      return `${field} contains zero-width or invisible characters.`
    case "empty":
      return `${field} must not be empty.`
    case "too_long":
      return `${field} is longer than ${problem.limit} ${problem.unit}.`
  }
}

/**
 * A label from a network (an account's name or handle), made safe to store and show: what the rules
 * refuse is removed rather than refused (a person cannot edit what the network says), lone
 * surrogates become U+FFFD, and the text is cut at `max` characters.
 */
export const cleanLabel = (text: string, max: number): string => {
  const bounded = text.length > max * 4 ? text.slice(0, max * 4) : text
  let out = bounded.toWellFormed().replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
  out = out.replace(new RegExp(`${direction.source}|${invisible.source}`, "g"), "")
  if (joinersStandAlone(out)) out = out.replace(joiner, "")
  out = out.replace(/\s+/g, " ").trim()
  let n = 0
  let end = 0
  for (const ch of out) {
    if (n === max) break
    n++
    end += ch.length
  }
  return out.slice(0, end)
}
