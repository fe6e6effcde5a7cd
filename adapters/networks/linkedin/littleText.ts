/**
 * LinkedIn's "little text" format for a post's commentary: these characters are markup and must be
 * escaped with a backslash, or LinkedIn cuts the text at them (Posts API, little text format).
 */
const RESERVED = new Set(["\\", "|", "{", "}", "@", "[", "]", "(", ")", "<", ">", "#", "*", "_", "~"])

const escapeAll = (text: string) => {
  let out = ""
  for (const ch of text) out += RESERVED.has(ch) ? `\\${ch}` : ch
  return out
}

/** A hashtag: # after the start or a space, then letters, digits or underscores (not a URL's #fragment). */
const HASHTAG = /(^|\s)#([\p{L}\p{N}_]+)/gu

/**
 * A post's text as LinkedIn's commentary: reserved characters escaped, and #tags written as
 * hashtag templates (`{hashtag|\#|tag}`) so LinkedIn links them as its own app does.
 */
export const toLittleText = (text: string): string => {
  let out = ""
  let last = 0
  for (const match of text.matchAll(HASHTAG)) {
    const start = match.index + match[1].length
    out += escapeAll(text.slice(last, start)) + `{hashtag|\\#|${escapeAll(match[2])}}`
    last = start + 1 + match[2].length
  }
  return out + escapeAll(text.slice(last))
}
