import { Context, type Effect, type Option } from "effect"
import type { Delivery, DeliveryStatus } from "../../domain/webhooks.ts"

/** A delivery as a worker holds it: what to send, where, and the lease's fencing token (`attempts`). */
export interface LeasedDelivery {
  readonly id: string
  readonly attempts: number
  readonly roundFailures: number
  readonly event: { readonly id: string; readonly type: string; readonly createdAt: number; readonly body: string }
  readonly webhook: {
    readonly id: string
    readonly workspaceId: string
    readonly url: string
    readonly sealedSecret: string
    readonly failingSince: number | null
    /** Hung tries in a row when leased (its circuit: see DeliveryLimits). */
    readonly hangs: number
  }
}

/** How the queue shares its slots: per endpoint, per workspace, and a circuit for endpoints that hang. */
export interface DeliveryLimits {
  /** Tries in flight at once to one endpoint, every scheduler together. */
  readonly perEndpoint: number
  /** Tries in flight at once for one workspace, every scheduler together. */
  readonly perWorkspace: number
  /** Hung tries in a row that open an endpoint's circuit: no slot until its pause ends, then one try at a time until it answers. */
  readonly hangsToPause: number
  /** The first pause; each further hung try doubles it, up to `maxPauseMs`. */
  readonly pauseMs: number
  readonly maxPauseMs: number
}

/** What became of one try. */
export type DeliveryResult =
  | { readonly _tag: "Succeeded" }
  /** Failed; tried again at `retryAt`. */
  | { readonly _tag: "Retry"; readonly retryAt: number }
  /** Failed; no more tries (the schedule ran out, or a test event). */
  | { readonly _tag: "GaveUp" }

export interface DeliveryRecord {
  readonly delivery: LeasedDelivery
  readonly at: number
  readonly result: DeliveryResult
  readonly responseCode: number | null
  readonly responseTimeMs: number | null
  readonly error: string | null
  /** It failed without an answer in time (it held its slot long): counts toward the endpoint's circuit. */
  readonly hung: boolean
}

export interface DeliveryListQuery {
  readonly limit: number
  /** The last delivery id seen (newest first). */
  readonly before?: string | undefined
  readonly status?: DeliveryStatus | undefined
}

export interface WebhookDeliveriesShape {
  /**
   * Leases up to `max` due deliveries of enabled endpoints until `now + leaseMs`, counting a try. Per
   * endpoint and ordering key only the oldest unfinished delivery is ever due, so a post's events
   * reach an endpoint in order. Workspaces take turns (the oldest due of each, then the next of each),
   * within `limits` counted over every lease held; a paused endpoint takes none. Concurrent callers
   * never get the same delivery; a lease that runs out makes it due again (the same event id goes out again).
   */
  readonly lease: (
    now: number,
    max: number,
    leaseMs: number,
    limits: DeliveryLimits
  ) => Effect.Effect<ReadonlyArray<LeasedDelivery>>
  /** The heartbeat: pushes the leases of deliveries still held (not recorded since) to `until`; the ids extended. */
  readonly extend: (deliveries: ReadonlyArray<LeasedDelivery>, until: number) => Effect.Effect<ReadonlySet<string>>
  /** Leases one delivery now, due or not (the test endpoint sends its event at once); none when it is held or finished. */
  readonly leaseOne: (id: string, now: number, leaseMs: number) => Effect.Effect<Option.Option<LeasedDelivery>>
  /**
   * Records tries in one write, each only if its lease still holds: the ids recorded. A success
   * clears the endpoint's failing streak; a failure starts one (failingSince) if none is running.
   * A hung try counts toward the endpoint's circuit, any answer closes it; when it opens, the
   * endpoint's waiting deliveries are planned for the end of its pause.
   */
  readonly record: (
    records: ReadonlyArray<DeliveryRecord>,
    limits: DeliveryLimits
  ) => Effect.Effect<ReadonlySet<string>>
  /** An endpoint's deliveries, newest first. */
  readonly list: (
    workspaceId: string,
    webhookId: string,
    query: DeliveryListQuery
  ) => Effect.Effect<ReadonlyArray<Delivery>>
  readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Delivery>>
  /** Sends a delivery again from the start of the schedule (pending, due at `now`); none when there is no such delivery. */
  readonly redeliver: (workspaceId: string, id: string, now: number) => Effect.Effect<Option.Option<Delivery>>
  /** Deliveries not finished yet, every endpoint (tests and benches). */
  readonly pendingCount: () => Effect.Effect<number>
}

/** The delivery queue and its history: one row per event and endpoint. */
export class WebhookDeliveries extends Context.Service<WebhookDeliveries, WebhookDeliveriesShape>()(
  "herald/WebhookDeliveries"
) {}
