import twitterText from "twitter-text"
import type { TimelinePage } from "./api.ts"

const LINK = "\u0000link"

/**
 * A post's text made comparable with what X shows back: X escapes &, < and >, shortens every link
 * to t.co (also links without a scheme) and appends a t.co link for media. So links become one
 * placeholder, links at the end are dropped, and spaces are collapsed, on both sides alike.
 */
export const comparable = (text: string): string => {
  let out = text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&").normalize("NFC")
  const links = twitterText.extractUrlsWithIndices(out)
  for (const {
    indices: [start, end]
  } of links.reverse())
    out = `${out.slice(0, start)}${LINK}${out.slice(end)}`
  return out
    .replace(/(?:\s*\u0000link)+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim()
}

/** X may show a reply with the @names it replies to in front. */
const withoutLeadingMentions = (text: string) => text.replace(/^(?:@\w{1,15}\s+)+/, "")

/**
 * The id of the post in `page` that a lost attempt made: the same text, replying to the same post
 * (or to none). X refuses the same text twice in a row, so text and parent name one post.
 */
export const findPost = (page: TimelinePage, text: string, parentId: string | null): string | null => {
  const wanted = comparable(text)
  for (const tweet of page.data ?? []) {
    const repliedTo = tweet.referenced_tweets?.find((r) => r.type === "replied_to")?.id ?? null
    if (repliedTo !== parentId) continue
    const shown = comparable(tweet.note_tweet?.text ?? tweet.text)
    if (shown === wanted || (parentId !== null && withoutLeadingMentions(shown) === wanted)) return tweet.id
  }
  return null
}
