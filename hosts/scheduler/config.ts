import { Config } from "effect"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { defaultSweeperOptions } from "../../application/usecases/publishing/sweepers.ts"
import { defaultSchedulerOptions, type SchedulerOptions } from "./layer.ts"

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
  sweepEveryMs: int("HERALD_SWEEP_EVERY_MS", defaultSweeperOptions.everyMs)
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
  graceMs: env.graceMs
})
