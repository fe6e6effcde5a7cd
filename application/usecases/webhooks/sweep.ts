import { Effect } from "effect"
import { DAY_MS } from "../../../domain/time.ts"
import { EventOutbox } from "../../ports/EventOutbox.ts"
import { now } from "../common.ts"

/** Events (and their deliveries) are kept this long: GET /events and the deliveries list reach back 30 days. */
export const EVENT_RETENTION_MS = 30 * DAY_MS

/** Removes events older than the retention, a batch at a time. */
export const sweepOldEvents = Effect.fn("sweepOldEvents")(function* (batch: number) {
  return { events: yield* (yield* EventOutbox).sweep((yield* now) - EVENT_RETENTION_MS, batch) }
})
