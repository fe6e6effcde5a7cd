import { Context, type Effect } from "effect"

export type JobKind = "publish" | "first_comment"

/** One unit of publishing work: one target of one post (or its first comment). */
export interface Job {
  readonly id: string
  readonly kind: JobKind
  readonly workspaceId: string
  readonly postId: string
  readonly accountId: string
  readonly runAt: number
  readonly attempts: number
}

export interface JobQueueShape {
  readonly enqueue: (jobs: ReadonlyArray<Job>) => Effect.Effect<void>
  /** Removes every pending job of a post (cancel, reject). Leased jobs are left to finish. */
  readonly removeForPost: (postId: string) => Effect.Effect<void>
  /** Moves every pending publish job of a post to a new time (reschedule). */
  readonly rescheduleForPost: (postId: string, runAt: number) => Effect.Effect<void>
  /** Leases up to `max` due jobs until `now + leaseMs`; a lease that expires makes the job due again. */
  readonly lease: (now: number, max: number, leaseMs: number) => Effect.Effect<ReadonlyArray<Job>>
  /** Done: the job leaves the queue. */
  readonly complete: (id: string) => Effect.Effect<void>
  /** Try again later: releases the lease and counts an attempt. */
  readonly retryAt: (id: string, runAt: number) => Effect.Effect<void>
  /** Pending jobs (tests and the admin view). */
  readonly pending: () => Effect.Effect<ReadonlyArray<Job>>
}

export class JobQueue extends Context.Service<JobQueue, JobQueueShape>()("herald/JobQueue") {}
