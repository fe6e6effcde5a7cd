import twitterText from "twitter-text"
import type { Platform } from "./platforms.ts"
import { countUpTo, maxTextUnits, segmenter, utf8BytesUpTo } from "./text.ts"

/** How a network counts text length. */
export type TextCounting = "chars" | "graphemes" | "x-weighted" | "threads"

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
  readonly reel?: ReelRules
  /** Posts one account may publish in any 24 hours, where the network documents a cap (posting queues keep under it). */
  readonly postsPer24Hours?: number
  readonly source: string
}

const days = (n: number) => n * 24 * 60
const MB = 1024 * 1024

/**
 * The per-network rules table. Sources: each network's public API documentation and the
 * validation of Postiz, Ayrshare and Late, gathered 2026-11-21 (shared/notes/networks.md).
 * Spec overrides: threads only for X, Threads and Bluesky; polls only for X and LinkedIn.
 */
export const networkRules: Record<Platform, NetworkRules> = {
  x: {
    textLimit: 280,
    textCounting: "x-weighted",
    mediaRequired: false,
    maxImages: 4,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 280,
    cover: false,
    videoMaxSeconds: 140,
    videoMinSeconds: 0.5,
    poll: { minOptions: 2, maxOptions: 4, maxOptionLength: 25, durationMinutes: { min: 5, max: 10_080 } },
    source: "X API v2 POST /2/tweets, twitter-text weighting; 2026-11-21"
  },
  bluesky: {
    textLimit: 300,
    textCounting: "graphemes",
    mediaRequired: false,
    maxImages: 4,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 25,
    poll: null,
    firstComment: true,
    firstCommentLimit: 300,
    cover: false,
    videoMaxSeconds: 180,
    source: "AT Protocol app.bsky.feed.post lexicon (300 graphemes); 2026-11-21"
  },
  threads: {
    textLimit: 500,
    textCounting: "threads",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 20,
    mixedMedia: true,
    maxThreadReplies: 25,
    poll: null,
    firstComment: true,
    firstCommentLimit: 500,
    cover: false,
    videoMaxSeconds: 300,
    imageMaxBytes: 8 * MB,
    postsPer24Hours: 250,
    source:
      "Threads API posts reference (250 posts a moving 24 h) (500 characters, emojis counted as their UTF-8 bytes); polls withheld by the spec (X or LinkedIn only); 2026-11-21"
  },
  linkedin: {
    textLimit: 3000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    firstComment: true,
    firstCommentLimit: 1250,
    cover: true,
    coverKinds: ["image"],
    videoMaxSeconds: 1800,
    videoMinSeconds: 3,
    poll: {
      minOptions: 2,
      maxOptions: 4,
      maxOptionLength: 30,
      durationMinutes: [days(1), days(3), days(7), days(14)],
      maxQuestionLength: 140
    },
    source: "LinkedIn Posts API (community management); 2026-11-21"
  },
  instagram: {
    textLimit: 2200,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 10,
    maxVideos: 10,
    mixedMedia: true,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 2196,
    cover: true,
    videoMaxSeconds: 90,
    postsPer24Hours: 50,
    source: "Instagram Graph API content publishing (50 API-published posts a moving 24 h); 2026-11-21"
  },
  facebook: {
    textLimit: 63_206,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 10,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 8000,
    cover: true,
    videoMaxSeconds: 90,
    reel: { minSeconds: 3, maxSeconds: 90, aspect: { width: 9, height: 16 }, perDay: 30 },
    source:
      "Facebook Pages API; reels: Video API Reels Publishing guide (3-90 s, 9:16, 30 API-published reels a moving 24 h); 2026-11-21"
  },
  tiktok: {
    textLimit: 2200,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 35,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: false,
    firstCommentLimit: 0,
    cover: true,
    coverKinds: ["offset"],
    videoMaxSeconds: 600,
    videoMinSeconds: 3,
    postsPer24Hours: 15,
    source: "TikTok Content Posting API (about 15 posts a day per creator, third-party figure); 2026-11-21"
  },
  youtube: {
    textLimit: 5000,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 0,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 10_000,
    cover: true,
    coverKinds: ["image"],
    videoMaxSeconds: 900,
    source: "YouTube Data API v3 videos.insert; 2026-11-21"
  },
  pinterest: {
    textLimit: 500,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 5,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: false,
    firstCommentLimit: 0,
    cover: true,
    videoMaxSeconds: null,
    source: "Pinterest API v5 pins; 2026-11-21"
  },
  sandbox: {
    textLimit: 10_000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 20,
    mixedMedia: true,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 10_000,
    cover: true,
    videoMaxSeconds: null,
    poll: { minOptions: 2, maxOptions: 4, maxOptionLength: 30, durationMinutes: { min: 5, max: days(14) } },
    source: "Herald's built-in sandbox: accepts every capability"
  }
}

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
