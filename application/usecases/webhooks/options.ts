import { DEFAULT_DISABLE_AFTER_MS, defaultRetrySchedule } from "../../../domain/webhooks.ts"
import type { DeliveryLimits } from "../../ports/WebhookDeliveries.ts"

/** How the delivery worker behaves; the scheduler reads these from config, tests shorten them. */
export interface DeliveryOptions {
  /** Deliveries in flight at once in one worker: its own slots, never the publishing worker's. */
  readonly concurrency: number
  /** Deliveries taken per look at the queue. */
  readonly batch: number
  /** Idle wait between two looks. */
  readonly pollMs: number
  /** Under load, how long a freed slot waits for others before the next lease (a lease costs a statement). */
  readonly gatherMs: number
  /** How long a worker holds a delivery; longer than a try can take (the sender's timeout). */
  readonly leaseMs: number
  /** Waits before each retry; when they run out the delivery fails for good. */
  readonly retrySchedule: ReadonlyArray<number>
  /** An endpoint whose deliveries have all failed for this long is turned off and its owner told. */
  readonly disableAfterMs: number
  /** Caps and circuit: one tenant's endpoints cannot take the slots another's need. */
  readonly limits: DeliveryLimits
  /** A failed try that took this long hung (it held its slot): it counts toward its endpoint's circuit. */
  readonly hangMs: number
}

export const defaultDeliveryOptions: DeliveryOptions = {
  concurrency: 128,
  batch: 64,
  pollMs: 100,
  gatherMs: 20,
  leaseMs: 10_000,
  retrySchedule: defaultRetrySchedule,
  disableAfterMs: DEFAULT_DISABLE_AFTER_MS,
  limits: { perEndpoint: 64, perWorkspace: 64, hangsToPause: 3, pauseMs: 30_000, maxPauseMs: 600_000 },
  hangMs: 5_000
}
