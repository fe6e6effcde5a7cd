import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import type { IdempotencyRecord } from "../../application/ports/IdempotencyStore.ts"
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
  p.targets.map((t) => ({
    id: newId("job"),
    kind: "publish",
    workspaceId: p.workspaceId,
    postId: p.id,
    accountId: t.accountId,
    runAt: T0 + 60_000,
    attempts: 0
  }))

const DAY = 86_400_000

/** The idempotency record a request with `key` would claim for post `p`. */
const claimFor = (p: Post, key: string, requestHash = "hash-of-body"): IdempotencyRecord => ({
  scope: `${p.workspaceId}:key_A`,
  key,
  requestHash,
  postId: p.id,
  createdAt: T0,
  expiresAt: T0 + DAY
})

const stored = (p: Post) => Effect.flatMap(PostRepo, (repo) => repo.findById(p.workspaceId, p.id))
const queuedFor = (p: Post) =>
  Effect.map(
    Effect.flatMap(JobQueue, (q) => q.pending()),
    (jobs) => jobs.filter((j) => j.postId === p.id)
  )

/** The PostCreator contract: the whole create (post, jobs, month count) or nothing, and the cap holds under concurrency. */
export const postCreatorContract = (
  name: string,
  ports: Layer.Layer<PostCreatorPorts, unknown>,
  options?: SuiteOptions
) =>
  layer(ports, layerOptions(options))(`${name}: PostCreator`, (it) => {
    it.effect("stores the post with its jobs and counts it in its month", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id, {
          overrides: {
            x: { content: "Short", mediaIds: [] },
            linkedin: { content: "The long one", firstComment: "More" }
          }
        })
        const jobs = jobsFor(p)
        const outcome = yield* (yield* PostCreator).create({ post: p, jobs, usage: { month: "2026-01", limit: null } })
        assert.deepStrictEqual(outcome, { _tag: "Created", used: null })
        assert.deepStrictEqual(yield* stored(p), Option.some(p))
        assert.deepStrictEqual(sorted((yield* queuedFor(p)).map((j) => j.id)), sorted(jobs.map((j) => j.id)))
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-01"), 1)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-02"), 0)
      })
    )

    it.effect("a post without jobs (waiting for approval) is stored and counted", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id, {
          status: "needs_approval",
          requireApproval: true,
          networkOptions: { youtube: { title: "Kept", tags: ["a b"] }, pinterest: { boardId: "42" } },
          overrides: { x: { content: "Kept short", mediaIds: [] }, bluesky: { thread: ["one"], firstComment: null } }
        })
        const outcome = yield* (yield* PostCreator).create({
          post: p,
          jobs: [],
          usage: { month: "2026-01", limit: 30 }
        })
        assert.deepStrictEqual(outcome, { _tag: "Created", used: 1 })
        // Whole, on the capped path too.
        assert.deepStrictEqual(yield* stored(p), Option.some(p))
        assert.deepStrictEqual(yield* queuedFor(p), [])
      })
    )

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
        assert.deepStrictEqual(yield* creator.create({ post: next, jobs: [], usage: { month: "2026-02", limit: 2 } }), {
          _tag: "Created",
          used: 1
        })
      })
    )

    it.effect("concurrent creates at the cap never take the month past it", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const posts = Array.from({ length: 12 }, () => post(ws.id))
        const outcomes = yield* Effect.forEach(
          posts,
          (p) => creator.create({ post: p, jobs: jobsFor(p), usage: { month: "2026-03", limit: 5 } }),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.filter((o) => o._tag === "Created").length, 5)
        assert.deepStrictEqual(sorted(outcomes.flatMap((o) => (o._tag === "Created" ? [String(o.used)] : []))), [
          "1",
          "2",
          "3",
          "4",
          "5"
        ])
        const kept = yield* Effect.forEach(posts, stored)
        assert.strictEqual(kept.filter(Option.isSome).length, 5)
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-03"), 5)
      })
    )

    it.effect("concurrent uncapped creates are all counted", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const posts = Array.from({ length: 40 }, () => post(ws.id))
        const outcomes = yield* Effect.forEach(
          posts,
          (p) => creator.create({ post: p, jobs: jobsFor(p), usage: { month: "2026-04", limit: null } }),
          { concurrency: "unbounded" }
        )
        assert.isTrue(outcomes.every((o) => o._tag === "Created" && o.used === null))
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-04"), 40)
        // The counter port's own increments add to the same month.
        assert.strictEqual(yield* (yield* UsageCounter).increment(ws.id, "2026-04"), 41)
      })
    )

    it.effect(
      "concurrent uncapped creates in several workspaces and months are each stored whole and counted where they belong",
      () =>
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
              assert.strictEqual(
                yield* usage.current(ws.id, month),
                entries.filter((_, i) => i % 3 === w && i % 2 === m).length
              )
        })
    )

    it.effect("a key is claimed with its post; a later create with the key stores nothing and names the holder", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const first = post(ws.id)
        const claim = claimFor(first, "key-1")
        assert.deepStrictEqual(
          yield* creator.create({ post: first, jobs: jobsFor(first), usage: { month: "2026-10", limit: null }, claim }),
          { _tag: "Created", used: null }
        )
        const second = post(ws.id)
        const again = yield* creator.create({
          post: second,
          jobs: jobsFor(second),
          usage: { month: "2026-10", limit: null },
          claim: claimFor(second, "key-1", "other-hash")
        })
        assert.deepStrictEqual(again, { _tag: "KeyHeld", holder: claim })
        assert.isTrue(Option.isNone(yield* stored(second)))
        assert.deepStrictEqual(yield* queuedFor(second), [])
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-10"), 1)
        // Another scope, or the same key once its record has expired, is free.
        const elsewhere = post(ws.id)
        assert.strictEqual(
          (yield* creator.create({
            post: elsewhere,
            jobs: [],
            usage: { month: "2026-10", limit: null },
            claim: { ...claimFor(elsewhere, "key-1"), scope: `${ws.id}:key_OTHER` }
          }))._tag,
          "Created"
        )
        const later = post(ws.id)
        const expired = { ...claimFor(later, "key-1"), createdAt: claim.expiresAt, expiresAt: claim.expiresAt + DAY }
        assert.strictEqual(
          (yield* creator.create({ post: later, jobs: [], usage: { month: "2026-10", limit: null }, claim: expired }))
            ._tag,
          "Created"
        )
      })
    )

    for (const limit of [null, 50])
      it.effect(
        `concurrent creates with one key store exactly one post (${limit === null ? "uncapped" : "capped"})`,
        () =>
          Effect.gen(function* () {
            const creator = yield* PostCreator
            const ws = yield* seedWorkspace()
            const posts = Array.from({ length: 12 }, () => post(ws.id))
            const outcomes = yield* Effect.forEach(
              posts,
              (p) =>
                creator.create({
                  post: p,
                  jobs: jobsFor(p),
                  usage: { month: "2026-11", limit },
                  claim: claimFor(p, "same")
                }),
              {
                concurrency: "unbounded"
              }
            )
            const made = posts.filter((_, i) => outcomes[i]!._tag === "Created")
            assert.strictEqual(made.length, 1)
            for (const o of outcomes)
              if (o._tag !== "Created")
                assert.deepStrictEqual(o, { _tag: "KeyHeld", holder: claimFor(made[0]!, "same") })
            const kept = yield* Effect.forEach(posts, stored)
            assert.strictEqual(kept.filter(Option.isSome).length, 1)
            assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-11"), 1)
          })
      )

    it.effect("over the cap the key is not kept: a retry once there is room is stored", () =>
      Effect.gen(function* () {
        const creator = yield* PostCreator
        const ws = yield* seedWorkspace()
        const filler = post(ws.id)
        yield* creator.create({ post: filler, jobs: [], usage: { month: "2026-12", limit: 1 } })
        const refused = post(ws.id)
        assert.deepStrictEqual(
          yield* creator.create({
            post: refused,
            jobs: [],
            usage: { month: "2026-12", limit: 1 },
            claim: claimFor(refused, "retry")
          }),
          { _tag: "OverCap" }
        )
        const retry = post(ws.id)
        assert.deepStrictEqual(
          yield* creator.create({
            post: retry,
            jobs: [],
            usage: { month: "2026-12", limit: 2 },
            claim: claimFor(retry, "retry")
          }),
          {
            _tag: "Created",
            used: 2
          }
        )
      })
    )

    it.effect("inside a transaction that fails afterwards, the create is rolled back with it", () =>
      Effect.gen(function* () {
        const ws = yield* seedWorkspace()
        const p = post(ws.id)
        const exit = yield* (yield* Store)
          .transaction(
            Effect.gen(function* () {
              yield* (yield* PostCreator).create({
                post: p,
                jobs: jobsFor(p),
                usage: { month: "2026-05", limit: null }
              })
              return yield* Effect.fail("later step failed")
            })
          )
          .pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit))
        assert.isTrue(Option.isNone(yield* stored(p)))
        assert.deepStrictEqual(yield* queuedFor(p), [])
        assert.strictEqual(yield* (yield* UsageCounter).current(ws.id, "2026-05"), 0)
      })
    )
  })
