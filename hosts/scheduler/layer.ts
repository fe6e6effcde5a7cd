import { Effect, Layer } from "effect"
import { defaultPipelineOptions, type PipelineOptions } from "../../application/usecases/publishing/options.ts"
import {
  defaultSweeperOptions,
  runSweepers,
  type SweeperOptions
} from "../../application/usecases/publishing/sweepers.ts"
import { startWorker } from "../../application/usecases/publishing/worker.ts"
import {
  defaultMetricsOptions,
  type MetricsOptions,
  startMetricsWorker
} from "../../application/usecases/metrics/worker.ts"
import { startDeliveryWorker } from "../../application/usecases/webhooks/deliver.ts"
import { defaultDeliveryOptions, type DeliveryOptions } from "../../application/usecases/webhooks/options.ts"

export interface SchedulerOptions {
  readonly pipeline: PipelineOptions
  /** null: no sweepers here (another process sweeps). */
  readonly sweepers: SweeperOptions | null
  /** On shutdown, jobs in flight get this long to finish before they are handed back to the queue. */
  readonly graceMs: number
  /** null: no webhook deliveries from this process. */
  readonly webhooks: DeliveryOptions | null
  /** null: no metrics refresh from this process. */
  readonly metrics: MetricsOptions | null
}

export const defaultSchedulerOptions: SchedulerOptions = {
  pipeline: defaultPipelineOptions,
  sweepers: defaultSweeperOptions,
  graceMs: 10_000,
  webhooks: defaultDeliveryOptions,
  metrics: defaultMetricsOptions
}

/**
 * The publishing worker as a background fiber of the layer's scope, on whatever ports are provided
 * (memory, PGlite, PostgreSQL). Closing the scope (SIGTERM in a host) stops leasing, lets jobs in
 * flight finish for `graceMs` and hands the rest back to the queue.
 */
export const workerLayer = (pipeline: Partial<PipelineOptions> = {}, graceMs = defaultSchedulerOptions.graceMs) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const worker = yield* startWorker({ ...defaultPipelineOptions, ...pipeline })
      yield* Effect.addFinalizer(() => worker.stop(graceMs))
    })
  )

/** The sweepers (expired unclaimed workspaces and uploads) as a background fiber of the layer's scope. */
export const sweeperLayer = (options: Partial<SweeperOptions> = {}) =>
  Layer.effectDiscard(Effect.forkScoped(runSweepers({ ...defaultSweeperOptions, ...options })))

/**
 * The webhook delivery loop as a background fiber of the layer's scope, with its own slots, so a slow
 * receiver never holds up publishing. Closing the scope stops leasing and lets deliveries in flight
 * finish for `graceMs` (any cut short go again, with the same id, when their leases run out).
 */
export const deliveryLayer = (options: Partial<DeliveryOptions> = {}, graceMs = defaultSchedulerOptions.graceMs) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const worker = yield* startDeliveryWorker({ ...defaultDeliveryOptions, ...options })
      yield* Effect.addFinalizer(() => worker.stop(graceMs))
    })
  )

/**
 * The metrics refresh on the lease loop in the background of the layer's scope, with its own slots
 * (accounts read at once). Closing the scope stops leasing and lets reads in flight finish for
 * `graceMs`; targets of a read cut short are due again when their leases run out.
 */
export const metricsLayer = (options: Partial<MetricsOptions> = {}, graceMs = defaultSchedulerOptions.graceMs) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const worker = yield* startMetricsWorker({ ...defaultMetricsOptions, ...options })
      yield* Effect.addFinalizer(() => worker.stop(graceMs))
    })
  )

/** Worker, webhook deliveries, metrics reads and sweepers: what a scheduler process (or the embedded host) runs. */
export const schedulerLayer = (options: Partial<SchedulerOptions> = {}) => {
  const o = { ...defaultSchedulerOptions, ...options }
  const publishing =
    o.sweepers === null
      ? workerLayer(o.pipeline, o.graceMs)
      : Layer.merge(workerLayer(o.pipeline, o.graceMs), sweeperLayer(o.sweepers))
  const delivering = o.webhooks === null ? publishing : Layer.merge(publishing, deliveryLayer(o.webhooks, o.graceMs))
  return o.metrics === null ? delivering : Layer.merge(delivering, metricsLayer(o.metrics, o.graceMs))
}
