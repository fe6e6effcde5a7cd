import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { type Job, JobQueue, type JobKind, type LeasedJob } from "../../application/ports/JobQueue.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { layerOptions, newId, post, seedWorkspace, sorted, type SuiteOptions, T0 } from "./fixtures.ts"

export type JobQueuePorts = JobQueue | Store | WorkspaceRepo | PostRepo

const LEASE = 30_000
const FAR = T0 + 10 * 365 * 86_400_000

const job = (workspaceId: string, over: Partial<Job> = {}): Job => ({
  id: newId("job"),
  kind: "publish" as JobKind,
  workspaceId,
  postId: newId("post"),
  accountId: "acc_1",
  runAt: T0,
  attempts: 0,
  ...over
})

/** Empties the queue (tests share one store): lease everything, far in the future, and complete it. */
const drain = Effect.gen(function* () {
  const queue = yield* JobQueue
  for (const j of yield* queue.lease(FAR, 10_000, 1)) yield* queue.complete(j)
})

const fresh = <A, E, R>(body: (workspaceId: string) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* drain
    const ws = yield* seedWorkspace()
    return yield* body(ws.id)
  })

const ids = (jobs: ReadonlyArray<Job>) => jobs.map((j) => j.id)

/** The JobQueue contract: every adapter (memory, PostgreSQL) passes it. */
export const jobQueueContract = (name: string, ports: Layer.Layer<JobQueuePorts, unknown>, options?: SuiteOptions) =>
  layer(ports, layerOptions(options))(`${name}: JobQueue`, (it) => {
    it.effect("a job is leased only once due, with its attempt counted and no checkpoint", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const j = job(ws, { runAt: T0 + 1000 })
          yield* queue.enqueue([j])
          assert.deepStrictEqual(ids(yield* queue.pending()), [j.id])
          assert.deepStrictEqual(yield* queue.lease(T0 + 999, 10, LEASE), [])
          const [leased] = yield* queue.lease(T0 + 1000, 10, LEASE)
          assert.deepStrictEqual(leased, { ...j, attempts: 1, failures: 0, checkpoint: null })
        })
      )
    )

    it.effect("leases the earliest first, at most `max`", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const late = job(ws, { runAt: T0 + 300 })
          const early = job(ws, { runAt: T0 + 100 })
          const middle = job(ws, { runAt: T0 + 200 })
          yield* queue.enqueue([late, early, middle])
          assert.deepStrictEqual(ids(yield* queue.lease(T0 + 1000, 2, LEASE)), [early.id, middle.id])
          assert.deepStrictEqual(ids(yield* queue.lease(T0 + 1000, 2, LEASE)), [late.id])
        })
      )
    )

    it.effect("a leased job is not handed out again until its lease expires; the old lease is then void", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          yield* queue.enqueue([job(ws)])
          const [first] = yield* queue.lease(T0, 10, LEASE)
          assert.deepStrictEqual(yield* queue.lease(T0 + LEASE - 1, 10, LEASE), [])
          const [second] = yield* queue.lease(T0 + LEASE, 10, LEASE)
          assert.strictEqual(second.id, first.id)
          assert.strictEqual(second.attempts, 2)
          assert.isFalse(yield* queue.complete(first))
          assert.isFalse(yield* queue.checkpoint(first, { step: 0, handle: "h" }))
          assert.isFalse(yield* queue.extend(first, T0 + 10 * LEASE))
          assert.isFalse(yield* queue.retryAt(first, T0, { failure: true, clearCheckpoint: true }))
          assert.isTrue(yield* queue.complete(second))
          assert.deepStrictEqual(yield* queue.pending(), [])
        })
      )
    )

    it.effect("extend keeps the lease past its first expiry", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          yield* queue.enqueue([job(ws)])
          const [leased] = yield* queue.lease(T0, 10, LEASE)
          assert.isTrue(yield* queue.extend(leased, T0 + 3 * LEASE))
          assert.deepStrictEqual(yield* queue.lease(T0 + 2 * LEASE, 10, LEASE), [])
          assert.strictEqual((yield* queue.lease(T0 + 3 * LEASE, 10, LEASE)).length, 1)
        })
      )
    )

    it.effect("extendMany renews the leases still held in one call, never a job handed back or taken over", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const ids = [job(ws), job(ws), job(ws)]
          yield* queue.enqueue(ids)
          const leased = yield* queue.lease(T0, 10, LEASE)
          const [a, b, c] = ids.map(({ id }) => leased.find((j) => j.id === id)!)
          // b is handed back for a retry later; c's lease runs out and another worker takes it.
          assert.isTrue(yield* queue.retryAt(b!, T0 + 10 * LEASE, { failure: false, clearCheckpoint: false }))
          assert.deepStrictEqual([...(yield* queue.extendMany([a!], T0 + 1.5 * LEASE))], [a!.id])
          const [taken] = yield* queue.lease(T0 + LEASE, 10, LEASE)
          assert.strictEqual(taken?.id, c!.id)
          const held = yield* queue.extendMany([a!, b!, c!], T0 + 3 * LEASE)
          assert.deepStrictEqual([...held], [a!.id])
          assert.deepStrictEqual(yield* queue.extendMany([], T0), new Set())
          // a stays held past its first lease; b keeps its retry time, not the heartbeat's.
          assert.deepStrictEqual(yield* queue.lease(T0 + 1.5 * LEASE, 10, LEASE), [])
          const later = (yield* queue.lease(T0 + 10 * LEASE, 10, LEASE)).map((j) => j.id).sort()
          assert.deepStrictEqual(later, [a!.id, b!.id, c!.id].sort())
        })
      )
    )

    it.effect("a checkpoint is kept for the next lease; retryAt counts failures and clears it only when asked", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          yield* queue.enqueue([job(ws)])
          const [a] = yield* queue.lease(T0, 10, LEASE)
          assert.isTrue(yield* queue.checkpoint(a, { step: 2, handle: "rkey-1" }))
          assert.isTrue(yield* queue.retryAt(a, T0 + 5000, { failure: true, clearCheckpoint: false }))
          assert.deepStrictEqual(yield* queue.lease(T0 + 4999, 10, LEASE), [])
          const [b] = yield* queue.lease(T0 + 5000, 10, LEASE)
          assert.deepStrictEqual(
            [b.attempts, b.failures, b.checkpoint, b.runAt],
            [2, 1, { step: 2, handle: "rkey-1" }, T0 + 5000]
          )
          assert.isTrue(yield* queue.retryAt(b, T0 + 6000, { failure: false, clearCheckpoint: true }))
          const [c] = yield* queue.lease(T0 + 6000, 10, LEASE)
          assert.deepStrictEqual([c.attempts, c.failures, c.checkpoint], [3, 1, null])
          assert.isTrue(yield* queue.checkpoint(c, { step: 0, handle: null }))
          assert.isTrue(yield* queue.retryAt(c, T0 + 7000, { failure: false, clearCheckpoint: false }))
          assert.deepStrictEqual((yield* queue.lease(T0 + 7000, 10, LEASE))[0].checkpoint, { step: 0, handle: null })
        })
      )
    )

    it.effect("removeForPost drops a post's waiting jobs and leaves a leased one to finish", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const postId = newId("post")
          const leasedNow = job(ws, { postId, accountId: "acc_1", runAt: T0 })
          const waiting = job(ws, { postId, accountId: "acc_2", runAt: T0 + 60_000 })
          const other = job(ws, { runAt: T0 + 60_000 })
          yield* queue.enqueue([leasedNow, waiting, other])
          yield* queue.lease(T0, 1, LEASE)
          yield* queue.removeForPost(postId)
          assert.deepStrictEqual(sorted(ids(yield* queue.pending())), sorted([leasedNow.id, other.id]))
        })
      )
    )

    it.effect("rescheduleForPost moves a post's waiting publish jobs only", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const postId = newId("post")
          const publish = job(ws, { postId, runAt: T0 + 1000 })
          const comment = job(ws, { postId, kind: "first_comment", runAt: T0 + 1000 })
          yield* queue.enqueue([publish, comment])
          yield* queue.rescheduleForPost(postId, T0 + 9000)
          const byId = new Map((yield* queue.pending()).map((j) => [j.id, j.runAt]))
          assert.deepStrictEqual([byId.get(publish.id), byId.get(comment.id)], [T0 + 9000, T0 + 1000])
          assert.deepStrictEqual(ids(yield* queue.lease(T0 + 8999, 10, LEASE)), [comment.id])
        })
      )
    )

    it.effect("concurrent leases never hand out one job twice", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const jobs = Array.from({ length: 40 }, (_, i) => job(ws, { runAt: T0 + i }))
          yield* queue.enqueue(jobs)
          const batches = yield* Effect.forEach(Array.from({ length: 10 }), () => queue.lease(T0 + 1000, 5, LEASE), {
            concurrency: "unbounded"
          })
          const leased = batches.flat().map((j: LeasedJob) => j.id)
          assert.strictEqual(leased.length, 40)
          assert.strictEqual(new Set(leased).size, 40)
        })
      )
    )

    it.effect("enqueue inside a failed transaction leaves no job", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const exit = yield* Effect.exit(
            (yield* Store).transaction(Effect.andThen(queue.enqueue([job(ws)]), Effect.fail("boom")))
          )
          assert.isTrue(Exit.isFailure(exit))
          assert.deepStrictEqual(yield* queue.pending(), [])
        })
      )
    )

    it.effect("lockPost makes concurrent read-modify-write transactions on one post wait for each other", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const posts = yield* PostRepo
          const store = yield* Store
          const p = post(ws, { content: "" })
          yield* posts.insert(p)
          const appendX = store.transaction(
            Effect.gen(function* () {
              yield* queue.lockPost(p.id)
              const current = Option.getOrThrow(yield* posts.findById(ws, p.id))
              yield* Effect.sleep(20)
              yield* posts.update({ ...current, content: `${current.content}x` })
            })
          )
          yield* Effect.all(
            Array.from({ length: 5 }, () => appendX),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(Option.getOrThrow(yield* posts.findById(ws, p.id)).content, "xxxxx")
        })
      )
    )

    it.effect("checkpointMany and completeMany write a batch in one call, each job fenced by its own lease", () =>
      fresh((ws) =>
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const [a, b, c] = [job(ws), job(ws), job(ws)]
          yield* queue.enqueue([a, b, c])
          const leased = yield* queue.lease(T0, 10, LEASE)
          const byId = new Map(leased.map((j) => [j.id, j]))
          const [la, lb, lc] = [byId.get(a.id)!, byId.get(b.id)!, byId.get(c.id)!]
          // c's lease expires and another worker takes it (a and b were kept alive): the first lease of c is void.
          yield* queue.extend(la, T0 + 2 * LEASE)
          yield* queue.extend(lb, T0 + 2 * LEASE)
          const [again, ...none] = yield* queue.lease(T0 + LEASE, 10, LEASE)
          assert.deepStrictEqual(none, [])
          assert.strictEqual(again.id, c.id)
          const held = yield* queue.checkpointMany([
            { job: la, checkpoint: { step: 0, handle: null } },
            { job: lb, checkpoint: { step: 0, handle: "h_b" } },
            { job: lc, checkpoint: { step: 0, handle: "h_c" } }
          ])
          assert.deepStrictEqual([...held].sort(), [a.id, b.id].sort())
          assert.deepStrictEqual(yield* queue.checkpointMany([]), new Set())
          // Handed back, the checkpoints are there for the next lease; c's new owner saw none.
          yield* queue.retryAt(la, T0 + LEASE, { failure: false, clearCheckpoint: false })
          yield* queue.retryAt(lb, T0 + LEASE, { failure: false, clearCheckpoint: false })
          const next = new Map((yield* queue.lease(T0 + LEASE, 10, LEASE)).map((j) => [j.id, j]))
          assert.deepStrictEqual(next.get(a.id)?.checkpoint, { step: 0, handle: null })
          assert.deepStrictEqual(next.get(b.id)?.checkpoint, { step: 0, handle: "h_b" })
          const done = yield* queue.completeMany([la, next.get(b.id)!, again])
          assert.deepStrictEqual([...done].sort(), [b.id, c.id].sort())
          assert.deepStrictEqual(ids(yield* queue.pending()), [a.id])
          assert.deepStrictEqual(yield* queue.completeMany([]), new Set())
        })
      )
    )

    it.effect(
      "lockPosts holds every post of a batch: transactions over overlapping posts, in any order, wait instead of deadlocking",
      () =>
        fresh((ws) =>
          Effect.gen(function* () {
            const queue = yield* JobQueue
            const posts = yield* PostRepo
            const store = yield* Store
            const ps = [post(ws, { content: "" }), post(ws, { content: "" }), post(ws, { content: "" })]
            for (const p of ps) yield* posts.insert(p)
            const appendX = (order: ReadonlyArray<number>) =>
              store.transaction(
                Effect.gen(function* () {
                  const chosen = order.map((i) => ps[i])
                  yield* queue.lockPosts(chosen.map((p) => p.id))
                  const current = yield* posts.findMany(chosen.map((p) => ({ workspaceId: ws, id: p.id })))
                  yield* Effect.sleep(10)
                  yield* posts.updateMany(current.map((p) => ({ ...p, content: `${p.content}x` })))
                })
              )
            const orders = [
              [0, 1, 2],
              [2, 1, 0],
              [1, 2],
              [2, 0],
              [0, 0, 1]
            ]
            yield* Effect.all(orders.map(appendX), { concurrency: "unbounded" })
            const after = yield* posts.findMany(ps.map((p) => ({ workspaceId: ws, id: p.id })))
            assert.deepStrictEqual(Object.fromEntries(after.map((p) => [p.id, p.content])), {
              [ps[0].id]: "xxxx",
              [ps[1].id]: "xxxx",
              [ps[2].id]: "xxxx"
            })
          })
        )
    )
  })
