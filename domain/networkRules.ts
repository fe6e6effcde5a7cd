import twitterText from "twitter-text"
import { declaredRules } from "./networks.generated.ts"
import type { Platform } from "./platforms.ts"
import { countUpTo, maxTextUnits, segmenter, utf8BytesUpTo } from "./text.ts"

/** How a network counts text length. */
export type TextCounting = "chars" | "graphemes" | "x-weighted" | "threads" | "mastodon"

export interface PollRules {
  readonly minOptions: number
  readonly maxOptions: number
  readonly maxOptionLength: number
  /** Allowed durations in minutes: a range, or a fixed set. */
  readonly durationMinutes: { readonly min: number; readonly max: number } | ReadonlyArray<number>
  readonly maxQuestionLength?: number
}

/** What a network's reels take where reels are a choice of the post (Facebook Pages' video_reels). */
export interface ReelRules {
  readonly minSeconds: number
  readonly maxSeconds: number
  /** The shape the network recommends, width to height. */
  readonly aspect: { readonly width: number; readonly height: number }
  /** Reels one account may publish in a moving 24 hours. */
  readonly perDay: number
}

/**
 * What a network's stories take where a story is a choice of the post (Instagram's STORIES): one
 * image or one video, no caption, no carousel, no first comment, no cover; these bound the video and
 * name the recommended shape (other shapes are fitted by the network, so only advised).
 */
export interface StoryRules {
  readonly minSeconds: number
  readonly maxSeconds: number
  readonly aspect: { readonly width: number; readonly height: number }
}

/** What one network accepts. One row per network; the spec wins where notes differ. */
export interface NetworkRules {
  readonly textLimit: number
  readonly textCounting: TextCounting
  readonly mediaRequired: boolean
  readonly maxImages: number
  readonly maxVideos: number
  /** Whether images and videos may be mixed in one post. */
  readonly mixedMedia: boolean
  /** Replies a thread may have after the post; 0: the network takes no threads. 25 is Herald's own cap. */
  readonly maxThreadReplies: number
  readonly poll: PollRules | null
  readonly firstComment: boolean
  readonly firstCommentLimit: number
  readonly cover: boolean
  /** What a cover may be where the network takes only one kind: an image upload or a frame offset (both when absent). */
  readonly coverKinds?: ReadonlyArray<"image" | "offset">
  readonly videoMaxSeconds: number | null
  /** Shorter videos are refused, where the network says (seconds). */
  readonly videoMinSeconds?: number
  /** Larger images are refused, where the network's limit is below Herald's own upload limit (bytes; Herald resizes Bluesky's itself). */
  readonly imageMaxBytes?: number
  /** Image types the network takes; any other is sent as a converted copy in the first (Instagram: JPEG only). Any, when absent. */
  readonly imageFormats?: ReadonlyArray<string>
  /** Image shapes the network takes, width over height; an image outside is refused at create (no padding or cropping). */
  readonly imageAspect?: { readonly min: number; readonly max: number }
  readonly reel?: ReelRules
  readonly story?: StoryRules
  /** Posts one account may publish in any 24 hours, where the network documents a cap (posting queues keep under it). */
  readonly postsPer24Hours?: number
  readonly source: string
}

/**
 * The per-network rules table: each row declared by its network's folder (its `rules`), gathered in
 * networks.generated.ts. Sources: each network's public API documentation and the validation of
 * Postiz, Ayrshare and Late, gathered 2026-11-21 (docs/networks/, one page per network). Spec overrides: threads
 * only for X, Threads and Bluesky; polls only for X and LinkedIn.
 */
export const networkRules: Record<Platform, NetworkRules> = declaredRules

const whitespace = /\s/g

/**
 * X's own counting (twitter-text: URLs 23, CJK and emoji 2), exact up to `limit`. A long text is
 * parsed in prefixes that double and end at whitespace (no URL or emoji is cut, so a prefix never
 * weighs more than the whole), and counting stops once a prefix is past `limit`.
 */
const xWeightedLength = (text: string, limit: number): number => {
  let end = 2 * (limit + 1)
  while (true) {
    whitespace.lastIndex = Math.min(end, text.length)
    const cut = end >= text.length ? text.length : (whitespace.exec(text)?.index ?? text.length)
    const length = twitterText.parseTweet(cut === text.length ? text : text.slice(0, cut)).weightedLength
    if (cut === text.length || length > limit) return length
    end = cut * 2
  }
}

const emoji = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u

/** Threads' counting: characters, except that an emoji (with its modifiers and joiners) counts its UTF-8 bytes; exact up to `limit`. */
const threadsLength = (text: string, limit: number): number => {
  let n = 0
  for (const { segment } of segmenter.segment(text)) {
    n += emoji.test(segment) ? utf8BytesUpTo(segment, 64) : countUpTo(segment, 64)
    if (n > limit) break
  }
  return n
}

// Mastodon's Account::MENTION_RE: @user or @user@domain, not inside a word or after a slash.
const mastodonMention =
  /(?<![=/\p{L}\p{N}_])@([a-z0-9_]+(?:[.-]+[a-z0-9_]+)*)(?:@[\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)?/giu
const MASTODON_URL_CHARS = 23

/**
 * Mastodon's counting (StatusLengthValidator): graphemes, every http(s) link as 23 whatever its
 * length, and a mention of a remote account as its username part only; exact up to `limit`.
 */
const mastodonLength = (text: string, limit: number): number => {
  const urls = twitterText.extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: false })
  let countable = ""
  let at = 0
  for (const {
    indices: [start, end]
  } of urls) {
    countable += text.slice(at, start).replace(mastodonMention, "@$1") + "x".repeat(MASTODON_URL_CHARS)
    at = end
  }
  countable += text.slice(at).replace(mastodonMention, "@$1")
  return countUpTo(countable, limit, "graphemes")
}

/** Length of a text as the network counts it, exact up to `limit` (past it, some number over `limit`). */
export const textLength = (text: string, counting: TextCounting, limit = maxTextUnits): number => {
  switch (counting) {
    case "chars":
      return countUpTo(text, limit)
    case "graphemes":
      return countUpTo(text, limit, "graphemes")
    case "x-weighted":
      return xWeightedLength(text, limit)
    case "threads":
      return threadsLength(text, limit)
    case "mastodon":
      return mastodonLength(text, limit)
  }
}

const largest = (pick: (rules: NetworkRules) => number) => Math.max(...Object.values(networkRules).map(pick))

/**
 * What any one post may carry at all, whatever its networks: the largest of each limit over the
 * table. The request's shape is checked against these before anything is looked up; each target's
 * own row is checked after.
 */
export const requestLimits = {
  /** Targets of one post: Herald's own cap (a post to every account of a large workspace). */
  accounts: 50,
  media: largest((r) => Math.max(r.maxImages, r.maxVideos)),
  threadReplies: largest((r) => r.maxThreadReplies),
  text: largest((r) => r.textLimit),
  firstComment: largest((r) => r.firstCommentLimit),
  pollOptions: largest((r) => r.poll?.maxOptions ?? 0),
  pollOption: largest((r) => r.poll?.maxOptionLength ?? 0),
  pollQuestion: largest((r) => r.poll?.maxQuestionLength ?? 0)
} as const
