import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { type Job, JobQueue } from "../../application/ports/JobQueue.ts"
import { PostCreator } from "../../application/ports/PostCreator.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import { UsageCounter } from "../../application/ports/UsageCounter.ts"
import type { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import type { Post } from "../../domain/post.ts"
import { layerOptions, newId, post, seedWorkspace, sorted, type SuiteOptions, T0 } from "./fixtures.ts"

export type PostCreatorPorts = PostCreator | PostRepo | JobQueue | UsageCounter | Store | WorkspaceRepo

const jobsFor = (p: Post): Array<Job> =>
  p.targets.map((t) => ({ id: newId("job"), kind: "publish", workspaceId: p.workspaceId, postId: p.id, accountId: t.accountId, runAt: T0 + 60_000, attempts: 0 }))

const stored = (p: Post) => Effect.flatMap(PostRepo, (repo) => repo.findById(p.workspaceId, p.id))
const queuedFor = (p: Post) => Effect.map(Effect.flatMap(JobQueue, (q) => q.pending()), (jobs) => jobs.filter((j) => j.postId === p.id))

/** The PostCreator contract: the whole create (post, jobs, month count) or nothing, and the cap holds under concurrency. */
export const postCreatorContract = (name: string, ports: Layer.Layer<PostCreatorPorts, unknown>, options?: SuiteOptions) =>
  layer(ports, layerOptions(options))(`${name}: PostCreator`, (it) => {
    it.effect("stores the post with its jobs and counts it in its month", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id)
        const jobs = jobsFor(p)
        const outcome = yield* (yield* PostCreator).create({ post: p, jobs, usage: { month: "2026-01", limit: null } })
        assert.deepStrictEqual(outcome, { _tag: "Created", used: null })
        assert.deepStrictEqual(yield* stored(p), Option.some(p))
        assert.deepStrictEqual(sorted((yield* queuedFor(p)).map((j) => j.id)), sorted(jobs.map((j) => j.id)))
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 1)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-02"), 0)
      }))

    it.effect("a post without jobs (waiting for approval) is stored and counted", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id, { status: "needs_approval", requireApproval: true })
        const outcome = yield* (yield* PostCreator).create({ post: p, jobs: [], usage: { month: "2026-01", limit: 30 } })
        assert.deepStrictEqual(outcome, { _tag: "Created", used: 1 })
        assert.isTrue(Option.isSome(yield* stored(p)))
        assert.deepStrictEqual(yield* queuedFor(p), [])
      }))

    it.effect("at the cap nothing is stored: no post, no job, no count", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const usage = { month: "2026-01", limit: 2 }
        for (const used of [1, 2]) {
          const p = post(ws.id)
          assert.deepStrictEqual(yield* creator.create({ post: p, jobs: jobsFor(p), usage }), { _tag: "Created", used })
        }
        const third = post(ws.id)
        assert.deepStrictEqual(yield* creator.create({ post: third, jobs: jobsFor(third), usage }), { _tag: "OverCap" })
        assert.isTrue(Option.isNone(yield* stored(third)))
        assert.deepStrictEqual(yield* queuedFor(third), [])
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 2)
        // Another month has its own count.
        const next = post(ws.id)
        assert.deepStrictEqual(yield* creator.create({ post: next, jobs: [], usage: { month: "2026-02", limit: 2 } }), { _tag: "Created", used: 1 })
      }))

    it.effect("concurrent creates at the cap never take the month past it", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const posts = Array.from({ length: 12 }, () => post(ws.id))
        const outcomes = yield* Effect.forEach(posts, (p) => creator.create({ post: p, jobs: jobsFor(p), usage: { month: "2026-03", limit: 5 } }), { concurrency: "unbounded" })
        assert.strictEqual(outcomes.filter((o) => o._tag === "Created").length, 5)
        assert.deepStrictEqual(sorted(outcomes.flatMap((o) => (o._tag === "Created" ? [String(o.used)] : []))), ["1", "2", "3", "4", "5"])
        const kept = yield* Effect.forEach(posts, stored)
        assert.strictEqual(kept.filter(Option.isSome).length, 5)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-03"), 5)
      }))

    it.effect("concurrent uncapped creates are all counted", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const posts = Array.from({ length: 40 }, () => post(ws.id))
        const outcomes = yield* Effect.forEach(posts, (p) => creator.create({ post: p, jobs: jobsFor(p), usage: { month: "2026-04", limit: null } }), { concurrency: "unbounded" })
        assert.isTrue(outcomes.every((o) => o._tag === "Created" && o.used === null))
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-04"), 40)
        // The counter port's own increments add to the same month.
        assert.strictEqual(yield* (yield* UsageCounter).increment(ws.id, "2026-04"), 41)
      }))

    it.effect("concurrent uncapped creates in several workspaces and months are each stored whole and counted where they belong", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const workspaces = [yield* seedWorkspace(), yield* seedWorkspace(), yield* seedWorkspace()]
        const months = ["2026-06", "2026-07"]
        const entries = Array.from({ length: 30 }, (_, i) => {
          const p = post(workspaces[i % 3]!.id, {
            content: `post ${i}`,
            mediaIds: i % 2 === 0 ? [`med_${i}`] : [],
            thread: i % 5 === 0 ? ["a reply", "another"] : [],
            poll: i % 7 === 0 ? { options: ["yes", "no"], durationMinutes: 60 } : null,
            firstComment: i % 4 === 0 ? "first!" : null
          })
          return { post: p, jobs: jobsFor(p), usage: { month: months[i % 2]!, limit: null } }
        })
        const outcomes = yield* Effect.forEach(entries, (e) => creator.create(e), { concurrency: "unbounded" })
        assert.isTrue(outcomes.every((o) => o._tag === "Created" && o.used === null))
        for (const e of entries) {
          assert.deepStrictEqual(yield* stored(e.post), Option.some(e.post))
          assert.deepStrictEqual(sorted((yield* queuedFor(e.post)).map((j) => j.id)), sorted(e.jobs.map((j) => j.id)))
        }
        const usage = yield* UsageCounter
        for (const [w, ws] of workspaces.entries())
          for (const [m, month] of months.entries())
            assert.strictEqual(yield* usage.current(ws.id, month), entries.filter((_, i) => i % 3 === w && i % 2 === m).length)
      }))

    it.effect("inside a transaction that fails afterwards, the create is rolled back with it", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id)
        const exit = yield* (yield* Store).transaction(
          Effect.gen(function* () {
            yield* (yield* PostCreator).create({ post: p, jobs: jobsFor(p), usage: { month: "2026-05", limit: null } })
            return yield* Effect.fail("later step failed")
          })
        ).pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit))
        assert.isTrue(Option.isNone(yield* stored(p)))
        assert.deepStrictEqual(yield* queuedFor(p), [])
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-05"), 0)
      }))
  })
