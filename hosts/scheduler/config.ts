import { Config, Schema } from "effect"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { defaultSweeperOptions } from "../../application/usecases/publishing/sweepers.ts"
import { defaultSchedulerOptions, type SchedulerOptions } from "./layer.ts"
import { defaultMetricsOptions } from "../../application/usecases/metrics/worker.ts"
import { defaultDeliveryOptions } from "../../application/usecases/webhooks/options.ts"

const int = (name: string, fallback: number) => Config.Int(name).pipe(Config.withDefault(fallback))

/** The scheduler's tuning, from the environment (defaults suit one small machine). */
export const schedulerConfig = Config.all({
  concurrency: int("HERALD_WORKER_CONCURRENCY", defaultPipelineOptions.concurrency),
  batch: int("HERALD_WORKER_BATCH", defaultPipelineOptions.batch),
  leaseMs: int("HERALD_LEASE_MS", defaultPipelineOptions.leaseMs),
  pollMs: int("HERALD_POLL_MS", defaultPipelineOptions.pollMs),
  publishTimeoutMs: int("HERALD_PUBLISH_TIMEOUT_MS", defaultPipelineOptions.publishTimeoutMs),
  firstCommentDelayMs: int("HERALD_FIRST_COMMENT_DELAY_MS", defaultPipelineOptions.firstCommentDelayMs),
  graceMs: int("HERALD_SHUTDOWN_GRACE_MS", defaultSchedulerOptions.graceMs),
  sweep: Config.Boolean("HERALD_SWEEPERS").pipe(Config.withDefault(true)),
  sweepEveryMs: int("HERALD_SWEEP_EVERY_MS", defaultSweeperOptions.everyMs),
  webhooks: Config.Boolean("HERALD_WEBHOOKS").pipe(Config.withDefault(true)),
  webhookConcurrency: int("HERALD_WEBHOOK_CONCURRENCY", defaultDeliveryOptions.concurrency),
  webhookBatch: int("HERALD_WEBHOOK_BATCH", defaultDeliveryOptions.batch),
  webhookPollMs: int("HERALD_WEBHOOK_POLL_MS", defaultDeliveryOptions.pollMs),
  webhookLeaseMs: int("HERALD_WEBHOOK_LEASE_MS", defaultDeliveryOptions.leaseMs),
  webhookDisableAfterMs: int("HERALD_WEBHOOK_DISABLE_AFTER_MS", defaultDeliveryOptions.disableAfterMs),
  metrics: Config.Boolean("HERALD_METRICS").pipe(Config.withDefault(true)),
  metricsConcurrency: int("HERALD_METRICS_CONCURRENCY", defaultMetricsOptions.concurrency),
  metricsBatch: int("HERALD_METRICS_BATCH", defaultMetricsOptions.batch),
  metricsPollMs: int("HERALD_METRICS_POLL_MS", defaultMetricsOptions.pollMs),
  webhookPerEndpoint: int("HERALD_WEBHOOK_PER_ENDPOINT", defaultDeliveryOptions.limits.perEndpoint),
  webhookPerWorkspace: int("HERALD_WEBHOOK_PER_WORKSPACE", defaultDeliveryOptions.limits.perWorkspace),
  webhookHangMs: int("HERALD_WEBHOOK_HANG_MS", defaultDeliveryOptions.hangMs),
  webhookHangsToPause: int("HERALD_WEBHOOK_HANGS_TO_PAUSE", defaultDeliveryOptions.limits.hangsToPause),
  webhookPauseMs: int("HERALD_WEBHOOK_PAUSE_MS", defaultDeliveryOptions.limits.pauseMs),
  // Milliseconds before each retry, comma-separated (tests and development shorten the three days).
  webhookRetriesMs: Config.schema(
    Schema.String.check(Schema.isPattern(/^\s*\d+(\s*,\s*\d+)*\s*$/)),
    "HERALD_WEBHOOK_RETRIES_MS"
  ).pipe(
    Config.withDefault(defaultDeliveryOptions.retrySchedule.join(",")),
    Config.map((text) => text.split(",").map((w) => Number(w.trim())))
  )
})

export type SchedulerEnv = Config.Success<typeof schedulerConfig>

export const toSchedulerOptions = (env: SchedulerEnv): SchedulerOptions => ({
  pipeline: {
    ...defaultPipelineOptions,
    concurrency: env.concurrency,
    batch: env.batch,
    leaseMs: env.leaseMs,
    pollMs: env.pollMs,
    publishTimeoutMs: env.publishTimeoutMs,
    firstCommentDelayMs: env.firstCommentDelayMs
  },
  sweepers: env.sweep ? { ...defaultSweeperOptions, everyMs: env.sweepEveryMs } : null,
  graceMs: env.graceMs,
  webhooks: env.webhooks
    ? {
        ...defaultDeliveryOptions,
        concurrency: env.webhookConcurrency,
        batch: env.webhookBatch,
        pollMs: env.webhookPollMs,
        leaseMs: env.webhookLeaseMs,
        retrySchedule: env.webhookRetriesMs,
        disableAfterMs: env.webhookDisableAfterMs,
        hangMs: env.webhookHangMs,
        limits: {
          ...defaultDeliveryOptions.limits,
          perEndpoint: env.webhookPerEndpoint,
          perWorkspace: env.webhookPerWorkspace,
          hangsToPause: env.webhookHangsToPause,
          pauseMs: env.webhookPauseMs
        }
      }
    : null,
  metrics: env.metrics
    ? {
        ...defaultMetricsOptions,
        concurrency: env.metricsConcurrency,
        batch: env.metricsBatch,
        pollMs: env.metricsPollMs
      }
    : null
})
