import { Effect, Layer } from "effect"
import { JobQueue, type JobQueueShape, type LeasedJob } from "../../application/ports/JobQueue.ts"
import { MemoryState } from "./MemoryState.ts"

type Stored = LeasedJob & { leaseUntil: number | null }

const plain = ({ leaseUntil: _, ...job }: Stored): LeasedJob => job

/** The queue on the shared memory state; `now` comes from the caller's Clock, so TestClock drives it. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const jobs = () => state.tables.jobs
  /** The stored job when `job` still holds its lease (no other worker leased it since). */
  const owned = (job: LeasedJob): Stored | undefined => {
    const stored = jobs().get(job.id)
    return stored !== undefined && stored.attempts === job.attempts ? stored : undefined
  }
  const change = (job: LeasedJob, f: (stored: Stored) => Stored | null) =>
    state.sync(() => {
      const stored = owned(job)
      if (stored === undefined) return false
      const next = f(stored)
      if (next === null) jobs().delete(job.id)
      else jobs().set(job.id, next)
      return true
    })
  return {
    enqueue: (list) =>
      state.sync(() =>
        list.forEach((job) => jobs().set(job.id, { ...job, failures: 0, checkpoint: null, leaseUntil: null }))
      ),
    removeForPost: (postId) =>
      state.sync(() => {
        for (const [id, job] of jobs()) if (job.postId === postId && job.leaseUntil === null) jobs().delete(id)
      }),
    rescheduleForPost: (postId, runAt) =>
      state.sync(() => {
        for (const [id, job] of jobs())
          if (job.postId === postId && job.kind === "publish" && job.leaseUntil === null)
            jobs().set(id, { ...job, runAt })
      }),
    lease: (now, max, leaseMs) =>
      state.sync(() => {
        const due = [...jobs().values()]
          .filter((j) => j.runAt <= now && (j.leaseUntil === null || j.leaseUntil <= now))
          .sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1))
          .slice(0, max)
        return due.map((job) => {
          const leased = { ...job, leaseUntil: now + leaseMs, attempts: job.attempts + 1 }
          jobs().set(job.id, leased)
          return plain(leased)
        })
      }),
    extend: (job, until) => change(job, (stored) => ({ ...stored, leaseUntil: until })),
    extendMany: (list, until) =>
      state.sync(() => {
        const held = new Set<string>()
        for (const job of list) {
          const stored = owned(job)
          if (stored === undefined || stored.leaseUntil === null) continue
          jobs().set(job.id, { ...stored, leaseUntil: until })
          held.add(job.id)
        }
        return held
      }),
    checkpoint: (job, checkpoint) => change(job, (stored) => ({ ...stored, checkpoint })),
    checkpointMany: (entries) =>
      state.sync(() => {
        const held = new Set<string>()
        for (const { job, checkpoint } of entries) {
          const stored = owned(job)
          if (stored === undefined) continue
          jobs().set(job.id, { ...stored, checkpoint })
          held.add(job.id)
        }
        return held
      }),
    complete: (job) => change(job, () => null),
    completeMany: (list) =>
      state.sync(() => {
        const done = new Set<string>()
        for (const job of list) {
          if (owned(job) === undefined) continue
          jobs().delete(job.id)
          done.add(job.id)
        }
        return done
      }),
    retryAt: (job, runAt, options) =>
      change(job, (stored) => ({
        ...stored,
        runAt,
        leaseUntil: null,
        failures: stored.failures + (options.failure ? 1 : 0),
        checkpoint: options.clearCheckpoint ? null : stored.checkpoint
      })),
    // Memory transactions already run one at a time (MemoryStore), so the post is held by then.
    lockPost: () => Effect.void,
    lockPosts: () => Effect.void,
    pending: () => state.sync(() => [...jobs().values()].map(plain))
  } satisfies JobQueueShape
})

export const layer = Layer.effect(JobQueue)(make)
