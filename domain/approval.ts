import { networkRules, textLength } from "./networkRules.ts"
import type { TargetContent } from "./overrides.ts"
import type { Platform } from "./platforms.ts"
import type { Poll, Post } from "./post.ts"
import { segmenter } from "./text.ts"

/**
 * What an approval covers: everything the person is shown. Two readings of a post with the same
 * version show the same thing, so an approval given for one applies to the other.
 */
const seen = (post: Post) =>
  JSON.stringify([
    post.id,
    post.content,
    post.mediaIds,
    post.firstComment,
    post.thread,
    post.poll === null ? null : [post.poll.question ?? null, post.poll.options, post.poll.durationMinutes],
    post.cover === null
      ? null
      : "mediaId" in post.cover
        ? ["media", post.cover.mediaId]
        : ["offset", post.cover.offsetMs],
    post.scheduledFor,
    post.targets.map((t) => t.accountId),
    post.tiktokAiGenerated,
    JSON.stringify(post.networkOptions ?? {}),
    JSON.stringify(post.overrides ?? {})
  ])

const FNV_OFFSET = 0xcbf29ce484222325n
const FNV_PRIME = 0x100000001b3n
const MASK = 0xffffffffffffffffn

/** The post's version as the approval page shows it: FNV-1a (64 bits) over what the person sees. */
export const approvalVersion = (post: Post): string => {
  let hash = FNV_OFFSET
  for (const byte of new TextEncoder().encode(seen(post))) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK
  return hash.toString(16).padStart(16, "0")
}

/** One text as one network will take it: its length in the network's units, the limit, and the part that fits. */
export interface TextOnNetwork {
  readonly length: number
  readonly limit: number
  readonly fits: boolean
  /** The longest start of the text (whole graphemes) within the limit: what the network would show if cut. */
  readonly shown: string
  /** What the cut leaves out ("" when it fits). */
  readonly rest: string
}

export const textOnNetwork = (
  text: string,
  platform: Platform,
  limit = networkRules[platform].textLimit
): TextOnNetwork => {
  const counting = networkRules[platform].textCounting
  const length = textLength(text, counting, limit)
  if (length <= limit) return { length, limit, fits: true, shown: text, rest: "" }
  const ends: Array<number> = []
  for (const { index, segment } of segmenter.segment(text)) ends.push(index + segment.length)
  let low = 0
  let high = ends.length - 1
  // The largest number of graphemes whose prefix fits.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (textLength(text.slice(0, ends[mid - 1]), counting, limit) <= limit) low = mid
    else high = mid - 1
  }
  const shown = low === 0 ? "" : text.slice(0, ends[low - 1])
  return { length: textLength(text, counting), limit, fits: false, shown, rest: text.slice(shown.length) }
}

/**
 * How one network will show a post's final content (its override applied): each text as the network
 * counts and cuts it, its media in order, and only the thread, first comment and poll it takes.
 * The approval page and the composer's preview both draw this.
 */
export const previewOn = (final: TargetContent, poll: Poll | null, platform: Platform) => {
  const rules = networkRules[platform]
  return {
    text: textOnNetwork(final.content, platform),
    mediaIds: final.mediaIds,
    thread: rules.maxThreadReplies > 0 ? final.thread.map((reply) => textOnNetwork(reply, platform)) : [],
    firstComment:
      rules.firstComment && final.firstComment !== null
        ? textOnNetwork(final.firstComment, platform, rules.firstCommentLimit)
        : null,
    poll: rules.poll !== null ? poll : null,
    maxImages: rules.maxImages
  }
}
export type NetworkPreview = ReturnType<typeof previewOn>
