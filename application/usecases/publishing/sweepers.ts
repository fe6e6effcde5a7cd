import { Effect } from "effect"
import { sendDueDigests } from "../inboxApproval.ts"
import { sweepExpiredMedia } from "../media/sweep.ts"
import { sweepOAuth } from "../oauth/sweep.ts"
import { sweepExpired } from "../sweep.ts"
import { sweepOldEvents } from "../webhooks/sweep.ts"

export interface SweeperOptions {
  /** Time between two sweeps. */
  readonly everyMs: number
  /** Records removed per sweep at most (the rest go on the next one). */
  readonly batch: number
}

export const defaultSweeperOptions: SweeperOptions = { everyMs: 60_000, batch: 100 }

const logged = <A extends Record<string, number>, E, R>(what: string, sweep: Effect.Effect<A, E, R>, none: A) =>
  sweep.pipe(
    Effect.tap((swept) =>
      Object.values(swept).some((n) => n > 0)
        ? Effect.logInfo(`swept ${what}`).pipe(Effect.annotateLogs(swept))
        : Effect.void
    ),
    Effect.catchCause((cause) => Effect.as(Effect.logError(`sweeping ${what} failed`, cause), none))
  )

/**
 * Sweeps forever: expired unclaimed workspaces (with what they own), expired uploads (bytes,
 * preview, record), events past their retention, and expired OAuth codes and tokens. Several schedulers may sweep at once; deleting
 * what is already gone is harmless.
 */
export const runSweepers = (options: SweeperOptions) =>
  Effect.gen(function* () {
    while (true) {
      const workspaces = yield* logged("expired workspaces", sweepExpired(options.batch), { workspaces: 0 })
      const media = yield* logged("expired uploads", sweepExpiredMedia(options.batch), { media: 0, failed: 0 })
      const events = yield* logged("old events", sweepOldEvents(options.batch * 10), { events: 0 })
      yield* logged("approval digests", sendDueDigests(options.batch), { digests: 0 })
      const oauth = yield* logged("expired OAuth codes and tokens", sweepOAuth(options.batch), { tokens: 0 })
      // A full batch means more are waiting: go again at once.
      if (
        workspaces.workspaces < options.batch &&
        media.media + media.failed < options.batch &&
        events.events < options.batch * 10 &&
        oauth.tokens < options.batch
      )
        yield* Effect.sleep(options.everyMs)
    }
  })
