import { Effect, Layer } from "effect"
import { JobQueue, type JobQueueShape } from "../../application/ports/JobQueue.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const jobs = () => state.tables.jobs
  return {
    enqueue: (list) => Effect.sync(() => list.forEach((job) => jobs().set(job.id, { ...job, leaseUntil: null }))),
    removeForPost: (postId) =>
      Effect.sync(() => {
        for (const [id, job] of jobs()) if (job.postId === postId && job.leaseUntil === null) jobs().delete(id)
      }),
    rescheduleForPost: (postId, runAt) =>
      Effect.sync(() => {
        for (const [id, job] of jobs())
          if (job.postId === postId && job.kind === "publish" && job.leaseUntil === null) jobs().set(id, { ...job, runAt })
      }),
    lease: (now, max, leaseMs) =>
      Effect.sync(() => {
        const due = [...jobs().values()]
          .filter((j) => j.runAt <= now && (j.leaseUntil === null || j.leaseUntil <= now))
          .sort((a, b) => a.runAt - b.runAt || (a.id < b.id ? -1 : 1))
          .slice(0, max)
        return due.map((job) => {
          const leased = { ...job, leaseUntil: now + leaseMs, attempts: job.attempts + 1 }
          jobs().set(job.id, leased)
          const { leaseUntil: _, ...plain } = leased
          return plain
        })
      }),
    complete: (id) => Effect.sync(() => void jobs().delete(id)),
    retryAt: (id, runAt) =>
      Effect.sync(() => {
        const job = jobs().get(id)
        if (job) jobs().set(id, { ...job, runAt, leaseUntil: null })
      }),
    pending: () => Effect.sync(() => [...jobs().values()].map(({ leaseUntil: _, ...job }) => job))
  } satisfies JobQueueShape
})

export const layer = Layer.effect(JobQueue)(make)
