import { Context, type Effect } from "effect"

export type JobKind = "publish" | "first_comment" | "takedown"

/** One unit of publishing work: one target of one post (or its first comment, or its take-down). */
export interface Job {
  readonly id: string
  readonly kind: JobKind
  readonly workspaceId: string
  readonly postId: string
  readonly accountId: string
  readonly runAt: number
  /** Leases so far (0 when enqueued). */
  readonly attempts: number
}

/**
 * What a worker stored before a network call: the step (0 = the post itself, n = thread reply n)
 * and the publisher's recovery handle (null for networks without one). Found on a job at lease
 * time, it means an earlier attempt may have reached the network: recover, do not call blindly.
 */
export interface Checkpoint {
  readonly step: number
  readonly handle: string | null
}

/** A job as a worker holds it. `attempts` is the lease's fencing token: it changes at every lease. */
export interface LeasedJob extends Job {
  /** Failed tries so far (retryable errors, timeouts); bounds the retries. */
  readonly failures: number
  readonly checkpoint: Checkpoint | null
}

export interface RetryOptions {
  /** Counts a failure (false: released on shutdown, not the job's fault). */
  readonly failure: boolean
  /** Drops the checkpoint: the network said for certain that nothing was published. */
  readonly clearCheckpoint: boolean
}

export interface JobQueueShape {
  readonly enqueue: (jobs: ReadonlyArray<Job>) => Effect.Effect<void>
  /** Removes every pending job of a post (cancel, reject). Leased jobs are left to finish. */
  readonly removeForPost: (postId: string) => Effect.Effect<void>
  /** Moves every pending publish job of a post to a new time (reschedule). */
  readonly rescheduleForPost: (postId: string, runAt: number) => Effect.Effect<void>
  /**
   * Leases up to `max` due jobs (earliest first) until `now + leaseMs` and counts an attempt; a lease
   * that expires makes the job due again. Concurrent callers never get the same job.
   */
  readonly lease: (now: number, max: number, leaseMs: number) => Effect.Effect<ReadonlyArray<LeasedJob>>
  /** Extends the lease; false when it has passed to another worker (then stop writing for the job). */
  readonly extend: (job: LeasedJob, until: number) => Effect.Effect<boolean>
  /** The heartbeat: `extend` for a batch in one write, each job only while it is still leased; the ids extended. */
  readonly extendMany: (jobs: ReadonlyArray<LeasedJob>, until: number) => Effect.Effect<ReadonlySet<string>>
  /** Stores the checkpoint before a network call; false when the lease was lost. */
  readonly checkpoint: (job: LeasedJob, checkpoint: Checkpoint) => Effect.Effect<boolean>
  /** `checkpoint` for a batch in one write: the ids of the jobs whose lease still held (the others stored nothing). */
  readonly checkpointMany: (
    entries: ReadonlyArray<{ readonly job: LeasedJob; readonly checkpoint: Checkpoint }>
  ) => Effect.Effect<ReadonlySet<string>>
  /** Done: the job leaves the queue; false when the lease was lost (another worker owns it). */
  readonly complete: (job: LeasedJob) => Effect.Effect<boolean>
  /** `complete` for a batch in one write: the ids of the jobs completed (the others' leases were lost). */
  readonly completeMany: (jobs: ReadonlyArray<LeasedJob>) => Effect.Effect<ReadonlySet<string>>
  /** Try again at `runAt`: releases the lease; false when the lease was lost. */
  readonly retryAt: (job: LeasedJob, runAt: number, options: RetryOptions) => Effect.Effect<boolean>
  /**
   * Inside a Store transaction: holds the post until the transaction ends, so workers updating
   * different targets of one post (stored together) do not overwrite each other.
   */
  readonly lockPost: (postId: string) => Effect.Effect<void>
  /** `lockPost` for several posts in one statement, always in the same order (no deadlock between batches). */
  readonly lockPosts: (postIds: ReadonlyArray<string>) => Effect.Effect<void>
  /** Pending and leased jobs (tests and the admin view). */
  readonly pending: () => Effect.Effect<ReadonlyArray<Job>>
}

export class JobQueue extends Context.Service<JobQueue, JobQueueShape>()("herald/JobQueue") {}
