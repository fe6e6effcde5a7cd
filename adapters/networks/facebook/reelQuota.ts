import { Effect } from "effect"
import { networkRules } from "../../../domain/networkRules.ts"
import { DAY_MS } from "../../../domain/time.ts"
import type { ReelLedgerShape } from "./reelLedger.ts"

/** Reels a Page may publish through the API in a moving 24 hours (Meta's Reels Publishing guide). */
export const REELS_PER_DAY = networkRules.facebook.reel!.perDay

/**
 * Meta's cap on a Page's reels, kept by Herald so that the 31st waits instead of being refused (Meta
 * asks apps to enforce the cap themselves, scheduled posts included), over the deployment's ledger.
 * Reels made outside Herald are not counted: Meta's own refusal (a throttling code) then closes the
 * Page as any rate limit does.
 */
export const makeReelQuota = (ledger: ReelLedgerShape, perDay = REELS_PER_DAY) => ({
  perDay,
  /** Reels published to the Page in the 24 hours before `at`. */
  used: (page: string, at: number) => Effect.map(ledger.within(page, at), (times) => times.length),
  /** When the Page may publish another reel, at `at` or later: `at` itself, or when enough counted reels leave the window. */
  freeAt: (page: string, at: number) =>
    Effect.map(ledger.within(page, at), (times) =>
      times.length < perDay ? at : times[times.length - perDay]! + DAY_MS
    ),
  /** Counts a reel Meta took (finish answered, or seen finished after a lost answer). */
  record: ledger.record
})

export type ReelQuota = ReturnType<typeof makeReelQuota>
