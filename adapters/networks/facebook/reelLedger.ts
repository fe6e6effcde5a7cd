import { Context, Effect, Layer } from "effect"
import { DAY_MS } from "../../../domain/time.ts"

/**
 * The reels published to each Page, as Meta counts them against its 30 a Page in a moving 24 hours.
 * Shared by every process of one deployment (SqlReelLedger), so two schedulers never publish a 31st.
 */
export interface ReelLedgerShape {
  /** Counts a reel Meta took, once per video id however often it is seen finished. */
  readonly record: (page: string, videoId: string, at: number) => Effect.Effect<void>
  /** When the Page's reels of the 24 hours up to `at` were finished, oldest first. */
  readonly within: (page: string, at: number) => Effect.Effect<ReadonlyArray<number>>
}

export class ReelLedger extends Context.Service<ReelLedger, ReelLedgerShape>()("herald/facebook/ReelLedger") {}

/** One process's ledger: tests, and a process that is the only one publishing. */
export const makeMemory = (): ReelLedgerShape => {
  const reels = new Map<string, Map<string, number>>()
  return {
    record: (page, videoId, at) =>
      Effect.sync(() => {
        const own = reels.get(page) ?? new Map<string, number>()
        for (const [id, t] of own) if (t <= at - DAY_MS) own.delete(id)
        if (!own.has(videoId)) own.set(videoId, at)
        reels.set(page, own)
      }),
    within: (page, at) =>
      Effect.sync(() =>
        [...(reels.get(page)?.values() ?? [])].filter((t) => t > at - DAY_MS && t <= at).sort((a, b) => a - b)
      )
  }
}

export const layerTest = Layer.sync(ReelLedger)(makeMemory)
