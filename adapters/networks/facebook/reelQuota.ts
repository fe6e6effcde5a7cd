import { networkRules } from "../../../domain/networkRules.ts"
import { DAY_MS } from "../../../domain/time.ts"

/** Reels a Page may publish through the API in a moving 24 hours (Meta's Reels Publishing guide). */
export const REELS_PER_DAY = networkRules.facebook.reel!.perDay

/**
 * The reels this process published to each Page in the moving 24 hours Meta counts, so that the
 * 31st waits instead of being refused (Meta asks apps to enforce the cap themselves, scheduled
 * posts included). Kept in memory: reels made elsewhere or before a restart are not counted, and
 * Meta's own refusal (a throttling code) then closes the Page as any rate limit does.
 */
export const makeReelQuota = (perDay = REELS_PER_DAY) => {
  /** Per Page, each reel's video id and when it was finished (one entry per reel, however often it is seen). */
  const reels = new Map<string, Map<string, number>>()
  const times = (page: string, end: number) => [...(reels.get(page)?.values() ?? [])].filter((t) => t > end - DAY_MS && t <= end).sort((a, b) => a - b)
  return {
    perDay,
    /** Reels published to the Page in the 24 hours before `at`. */
    used: (page: string, at: number) => times(page, at).length,
    /** When the Page may publish another reel, at `at` or later: `at` itself, or when enough counted reels leave the window. */
    freeAt: (page: string, at: number) => {
      const counted = times(page, at)
      return counted.length < perDay ? at : counted[counted.length - perDay]! + DAY_MS
    },
    /** Counts a reel Meta took (finish answered, or seen finished after a lost answer). */
    record: (page: string, videoId: string, at: number) => {
      const own = reels.get(page) ?? new Map<string, number>()
      for (const [id, t] of own) if (t <= at - DAY_MS) own.delete(id)
      if (!own.has(videoId)) own.set(videoId, at)
      reels.set(page, own)
    }
  }
}

export type ReelQuota = ReturnType<typeof makeReelQuota>
