import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Scope, Stream } from "effect"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { BlobStore } from "../../application/ports/BlobStore.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { TestClock } from "effect/testing"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { WorkspaceRepo } from "../../application/ports/WorkspaceRepo.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { startWorker } from "../../application/usecases/publishing/worker.ts"
import { signUp } from "../../application/usecases/signup.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { schedulerLayer } from "../../hosts/scheduler/layer.ts"
import { defaultDeliveryOptions } from "../../application/usecases/webhooks/options.ts"
import { defaultMetricsOptions } from "../../application/usecases/metrics/worker.ts"
import { pipelineLayer, setUp, testOptions } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(pipelineLayer()))

const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

describe("the worker loop", () => {
  it.effect("three workers on one queue publish every target exactly once", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp(3)
        const net = yield* ScriptedNetwork
        const ids: Array<string> = []
        for (let i = 0; i < 20; i++)
          ids.push(yield* post(f.agent, { accountIds: f.accountIds, content: `Post ${i}`, thread: ["a", "b"] }))
        for (let w = 0; w < 3; w++) yield* startWorker({ ...testOptions, concurrency: 4, batch: 2 })
        yield* TestClock.adjust("10 seconds")
        const roots = net.published().filter((r) => r.replyTo === null)
        assert.strictEqual(roots.length, 60)
        assert.strictEqual(new Set(roots.map((r) => `${r.postId}:${r.accountId}`)).size, 60)
        assert.strictEqual(net.published().length, 180)
        assert.deepStrictEqual(
          net.published().filter((r) => r.publishes !== 1),
          [],
          "exactly one call reached the network per handle"
        )
        for (const id of ids) assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect(
    "a lease goes out as one batch; a hanging call in it holds up neither the others' records nor the worker's next lease",
    () =>
      run(
        Effect.gen(function* () {
          const f = yield* setUp(3)
          const net = yield* ScriptedNetwork
          net.script("Hangs", Behaviour.hang)
          const stuck = yield* post(f.agent, { accountIds: [f.accountIds[0]], content: "Hangs" })
          const quick = yield* post(f.agent, { accountIds: f.accountIds, content: "Quick" })
          // One lease takes all four targets and every slot; the next post needs the slots the batch frees.
          yield* startWorker({ ...testOptions, concurrency: 4, batch: 4, pollMs: 100 })
          // The batch started outside any clock wake: step the clock in 1 ms steps, each a turn for its fibers.
          const stepThrough = (ms: number) =>
            Effect.forEach(Array.from({ length: ms }), () => TestClock.adjust(1), { discard: true })
          yield* stepThrough(100)
          assert.strictEqual((yield* getPost(f.agent, quick)).post.status, "published")
          assert.strictEqual((yield* getPost(f.agent, stuck)).post.status, "publishing")
          const later = yield* post(f.agent, { accountIds: f.accountIds, content: "Later" })
          yield* stepThrough(200)
          assert.strictEqual((yield* getPost(f.agent, later)).post.status, "published")
          // The hung call times out; the network says nothing arrived, so it goes again with the same handle.
          yield* TestClock.adjust(testOptions.publishTimeoutMs + 20_000)
          yield* stepThrough(100)
          assert.strictEqual((yield* getPost(f.agent, stuck)).post.status, "published")
          assert.strictEqual(net.published().length, 7)
          assert.strictEqual(new Set(net.published().map((r) => `${r.postId}:${r.accountId}`)).size, 7)
          assert.deepStrictEqual(
            net.published().map((r) => r.publishes),
            [1, 1, 1, 1, 1, 1, 1]
          )
        })
      )
  )

  it.effect("on stop, a job in flight finishes within the grace period", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.slow(5_000))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Finishing" })
        const worker = yield* startWorker(testOptions)
        yield* TestClock.adjust(1_000)
        const stopping = yield* Effect.forkChild(worker.stop(10_000))
        yield* TestClock.adjust(5_000)
        yield* Fiber.join(stopping)
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
        assert.strictEqual((yield* (yield* JobQueue).pending()).length, 0)
      })
    )
  )

  it.effect("on stop, a job that does not finish in time goes back to the queue and the next worker recovers it", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.hang)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Stuck" })
        const worker = yield* startWorker(testOptions)
        yield* TestClock.adjust(1_000)
        const stopping = yield* Effect.forkChild(worker.stop(2_000))
        yield* TestClock.adjust(2_000)
        yield* Fiber.join(stopping)
        const [job] = yield* (yield* JobQueue).pending()
        assert.strictEqual(job.runAt, 3_000, "handed back at once, not left to its lease")
        yield* startWorker(testOptions)
        yield* TestClock.adjust(1_000)
        assert.deepStrictEqual(
          net.calls().map((c) => c.kind),
          ["prepare", "publish", "recover", "publish"]
        )
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual(net.published()[0].publishes, 1, "the stuck call never reached the network")
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("schedulerLayer runs the worker and the sweepers (workspaces, uploads) until its scope closes", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        const unclaimed = yield* signUp({ body: { email: "late@herald-customer.org" }, ip: "10.0.0.2" })
        const blobs = yield* BlobStore
        yield* blobs.put("old.jpg", Stream.make(new Uint8Array([1, 2, 3])), "image/jpeg")
        yield* (yield* MediaRepo).insert({
          id: "med_old",
          workspaceId: f.person.workspaceId,
          type: "image",
          mimeType: "image/jpeg",
          filename: "old.jpg",
          sizeBytes: 3,
          width: 1,
          height: 1,
          durationMs: null,
          blobKey: "old.jpg",
          previewKey: null,
          createdAt: 0,
          expiresAt: 7 * 86_400_000
        })
        const scope = yield* Scope.make()
        const services = yield* Effect.context<never>()
        yield* Layer.buildWithScope(
          schedulerLayer({
            pipeline: { ...testOptions, pollMs: 60_000 },
            sweepers: { everyMs: 60 * 60_000, batch: 10 },
            webhooks: { ...defaultDeliveryOptions, pollMs: 60 * 60_000 },
            // Its default 1 s poll would wake 700,000 times over the 8 days below.
            metrics: { ...defaultMetricsOptions, pollMs: 60 * 60_000 }
          }),
          scope
        ).pipe(Effect.provideContext(services))
        yield* post(f.agent, { accountIds: f.accountIds, content: "Via the layer" })
        yield* TestClock.adjust(60_000)
        assert.strictEqual(net.published().length, 1)
        yield* TestClock.adjust("8 days")
        const gone = yield* (yield* WorkspaceRepo).findById(unclaimed.body.workspace!.id)
        assert.isTrue(gone._tag === "None", "the unclaimed workspace was swept")
        assert.isTrue(
          (yield* (yield* MediaRepo).findById(f.person.workspaceId, "med_old"))._tag === "None",
          "the expired upload was swept"
        )
        assert.deepStrictEqual((yield* StoredBlobs).keys(), [], "with its bytes")
        yield* Scope.close(scope, Exit.void)
        yield* post(f.agent, { accountIds: f.accountIds, content: "After shutdown" })
        yield* TestClock.adjust("10 minutes")
        assert.strictEqual(net.published().length, 1, "nothing runs after the scope closed")
      })
    )
  )
})
