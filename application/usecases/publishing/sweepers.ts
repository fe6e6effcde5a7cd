import { Effect } from "effect"
import { sweepExpired } from "../sweep.ts"

export interface SweeperOptions {
  /** Time between two sweeps. */
  readonly everyMs: number
  /** Records removed per sweep at most (the rest go on the next one). */
  readonly batch: number
}

export const defaultSweeperOptions: SweeperOptions = { everyMs: 60_000, batch: 100 }

/**
 * Sweeps forever: expired unclaimed workspaces (and what they own) and expired uploads' records.
 * Several schedulers may sweep at once; deleting an already deleted row is harmless.
 */
export const runSweepers = (options: SweeperOptions) =>
  Effect.gen(function* () {
    while (true) {
      const swept = yield* sweepExpired(options.batch).pipe(
        Effect.catchCause((cause) => Effect.as(Effect.logError("sweep failed", cause), { workspaces: 0 }))
      )
      if (swept.workspaces > 0) yield* Effect.logInfo("swept expired workspaces").pipe(Effect.annotateLogs(swept))
      // A full batch means more are waiting: go again at once.
      if (swept.workspaces < options.batch) yield* Effect.sleep(options.everyMs)
    }
  })
