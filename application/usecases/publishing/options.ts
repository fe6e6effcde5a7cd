/** How the publishing worker behaves; the daemon reads these from config, tests shorten them. */
export interface PipelineOptions {
  /** How long a leased job stays with its worker without a heartbeat. */
  readonly leaseMs: number
  /** Idle wait between two looks at the queue. */
  readonly pollMs: number
  /** Jobs in flight at once in one worker. */
  readonly concurrency: number
  /** Jobs taken from the queue per look. */
  readonly batch: number
  /** How long a worker trusts an account it has read (a reconnection shows after at most this). */
  readonly accountCacheMs: number
  /** Under load, how long a freed slot waits for others before the next lease. */
  readonly gatherMs: number
  /** Failed tries (retryable errors, timeouts) before a target fails for good. */
  readonly maxFailures: number
  /** Leases before a job that never finishes (it crashes its worker) is given up. */
  readonly maxLeases: number
  /** A network call that takes longer has an unknown outcome (checked on the next try). */
  readonly publishTimeoutMs: number
  /** The first comment goes out this long after its post is live. */
  readonly firstCommentDelayMs: number
  /**
   * A due target shows `publishing` once its network call has taken this long; faster calls go
   * from scheduled to published in one write, which is what keeps a busy queue cheap.
   */
  readonly markPublishingAfterMs: number
  /** Wait before retry number `failures` (1, 2, ...). */
  readonly backoffMs: (failures: number) => number
}

/** 15 s, 1 min, 4 min, 16 min, capped at 30 min: short blips pass, outages are not hammered. */
export const exponentialBackoff = (failures: number): number =>
  Math.min(15_000 * 4 ** Math.max(0, failures - 1), 30 * 60_000)

/**
 * Network calls are I/O: a scheduler keeps hundreds in flight (each is a fiber waiting on a socket),
 * so real latency (hundreds of ms a call) still moves thousands of targets a second. Storage keeps
 * up by group commit (steps.ts).
 */
export const defaultPipelineOptions: PipelineOptions = {
  leaseMs: 10_000,
  pollMs: 100,
  concurrency: 512,
  batch: 128,
  gatherMs: 20,
  accountCacheMs: 2_000,
  maxFailures: 5,
  maxLeases: 20,
  publishTimeoutMs: 120_000,
  firstCommentDelayMs: 10_000,
  markPublishingAfterMs: 2_000,
  backoffMs: exponentialBackoff
}
