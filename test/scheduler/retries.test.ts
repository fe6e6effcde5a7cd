import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Publishers } from "../../application/ports/Publishers.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { publishDueTargets, startWorker } from "../../application/usecases/publishing/worker.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { media as upload } from "../contract/fixtures.ts"
import { pipelineLayer, setUp, storedPost, testOptions } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(pipelineLayer()))

const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

const publishCalls = Effect.map(ScriptedNetwork, (net) => net.calls().filter((c) => c.kind === "publish"))

describe("retries and never posting twice", () => {
  it.effect("a retryable failure backs off (15 s, then 60 s) and then publishes", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.fail("upstream_unavailable", true), Behaviour.fail("upstream_unavailable", true))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Flaky" })
        yield* publishDueTargets(testOptions, 10)
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "publishing")
        yield* startWorker(testOptions)
        yield* TestClock.adjust(15_000 - 1)
        assert.strictEqual((yield* publishCalls).length, 1)
        yield* TestClock.adjust(1)
        assert.strictEqual((yield* publishCalls).length, 2)
        yield* TestClock.adjust(60_000 - 1)
        assert.strictEqual((yield* publishCalls).length, 2)
        yield* TestClock.adjust(1)
        assert.deepStrictEqual(
          (yield* publishCalls).map((c) => c.at),
          [0, 15_000, 75_000]
        )
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("retries are bounded: after 5 failures the target fails with the network's code", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", ...Array.from({ length: 10 }, () => Behaviour.fail("upstream_unavailable", true)))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Down" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust("2 hours")
        assert.strictEqual((yield* publishCalls).length, testOptions.maxFailures)
        const view = (yield* getPost(f.agent, id)).post
        assert.strictEqual(view.status, "failed")
        assert.deepStrictEqual(view.targets[0].error, {
          code: "upstream_unavailable",
          message: "Scripted failure (upstream_unavailable).",
          retryable: true
        })
        assert.strictEqual((yield* (yield* JobQueue).pending()).length, 0)
      })
    )
  )

  it.effect("the network's Retry-After is honoured when longer than the backoff", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.fail("rate_limited", true, 120_000))
        yield* post(f.agent, { accountIds: f.accountIds, content: "Busy" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust("5 minutes")
        assert.deepStrictEqual(
          (yield* publishCalls).map((c) => c.at),
          [0, 120_000]
        )
      })
    )
  )

  it.effect("a final refusal fails the target at once with its code; the other target still publishes", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp(2)
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.fail("duplicate_content", false))
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Same again" })
        yield* publishDueTargets(testOptions, 10)
        const view = (yield* getPost(f.agent, id)).post
        // Published on one network: the post is published, its failed target says why.
        assert.strictEqual(view.status, "published")
        assert.deepStrictEqual(view.targets.map((t) => t.status).sort(), ["failed", "published"])
        assert.strictEqual(view.targets.find((t) => t.status === "failed")!.error!.code, "duplicate_content")
        assert.strictEqual((yield* publishCalls).length, 2)
        // A person can still send the failed target again; the published one is left alone.
        const { retryPost } = yield* Effect.promise(() => import("../../application/usecases/posts/actions.ts"))
        assert.strictEqual((yield* retryPost(f.person, id)).post.status, "publishing")
        yield* publishDueTargets(testOptions, 10)
        assert.strictEqual((yield* publishCalls).length, 3)
      })
    )
  )

  it.effect(
    "a crash after the network got the post: the next try asks the network and records it, no second post",
    () =>
      run(
        Effect.gen(function* () {
          const f = yield* setUp()
          const net = yield* ScriptedNetwork
          net.script("", Behaviour.crash)
          const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Crash" })
          yield* startWorker(testOptions)
          yield* TestClock.adjust("5 minutes")
          assert.strictEqual(net.published().length, 1)
          assert.strictEqual(net.published()[0].publishes, 1, "one call reached the network with the handle")
          assert.deepStrictEqual(
            net.calls().map((c) => c.kind),
            ["prepare", "publish", "recover"]
          )
          const target = (yield* getPost(f.agent, id)).post.targets[0]
          assert.strictEqual(target.status, "published")
          assert.strictEqual(target.externalId, net.published()[0].externalId)
        })
      )
  )

  it.effect("a hung call times out; the network says nothing arrived, so it is sent again with the same handle", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.hang)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Hang" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust("5 minutes")
        const calls = net.calls()
        assert.deepStrictEqual(
          calls.map((c) => c.kind),
          ["prepare", "publish", "recover", "publish"]
        )
        assert.strictEqual(calls[1].handle, calls[3].handle)
        // After the backoff, at the loop's next look (its looks shift with the work it finishes).
        const due = testOptions.publishTimeoutMs + 15_000
        assert.isTrue(calls[3].at >= due && calls[3].at <= due + testOptions.pollMs, `sent again at ${calls[3].at}`)
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual(net.published()[0].publishes, 1, "the hung call never reached the network")
        assert.strictEqual((yield* getPost(f.agent, id)).post.status, "published")
      })
    )
  )

  it.effect("a slow call inside the lease is waited for, its lease kept alive", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.slow(25_000))
        yield* post(f.agent, { accountIds: f.accountIds, content: "Slow" })
        yield* startWorker({ ...testOptions, leaseMs: 10_000 })
        yield* TestClock.adjust("1 minute")
        assert.strictEqual(net.published().length, 1)
        assert.strictEqual((yield* publishCalls).length, 1, "no second worker pass took it over")
      })
    )
  )

  it.effect("a due post shows publishing while a slow call runs, and while it waits for a retry", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.script("", Behaviour.slow(5_000), Behaviour.fail("upstream_unavailable", true))
        const slow = yield* post(f.agent, {
          accountIds: f.accountIds,
          content: "Slow one",
          scheduledFor: new Date(60_000).toISOString()
        })
        const retried = yield* post(f.agent, {
          accountIds: f.accountIds,
          content: "Retried one",
          scheduledFor: new Date(120_000).toISOString()
        })
        yield* startWorker(testOptions)
        yield* TestClock.adjust(60_000 + testOptions.markPublishingAfterMs - 1)
        assert.strictEqual((yield* getPost(f.agent, slow)).post.status, "scheduled", "fast calls skip the write")
        yield* TestClock.adjust(1)
        assert.strictEqual((yield* getPost(f.agent, slow)).post.status, "publishing")
        yield* TestClock.adjust(5_000)
        assert.strictEqual((yield* getPost(f.agent, slow)).post.status, "published")
        yield* TestClock.adjust(55_000)
        assert.strictEqual((yield* getPost(f.agent, retried)).post.status, "publishing")
        yield* TestClock.adjust(15_000)
        const done = (yield* getPost(f.agent, retried)).post
        assert.strictEqual(done.status, "published")
        assert.strictEqual((yield* storedPost(f.agent, retried)).targets[0].attempts, 2)
      })
    )
  )

  it.effect("when the network cannot tell, the target fails with publish_outcome_unknown for a person to check", () =>
    run(
      Effect.gen(function* () {
        const f = yield* setUp()
        const net = yield* ScriptedNetwork
        net.setRecovery("unknown")
        net.script("", Behaviour.crash)
        const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Unknowable" })
        yield* startWorker(testOptions)
        yield* TestClock.adjust("5 minutes")
        const target = (yield* getPost(f.agent, id)).post.targets[0]
        assert.strictEqual(target.status, "failed")
        assert.strictEqual(target.error?.code, "publish_outcome_unknown")
        assert.strictEqual((yield* publishCalls).length, 1)
      })
    )
  )

  it.effect(
    "a worker that died after the call: when its lease expires the next one recovers instead of posting again",
    () =>
      run(
        Effect.gen(function* () {
          const f = yield* setUp()
          const net = yield* ScriptedNetwork
          const queue = yield* JobQueue
          const id = yield* post(f.agent, { accountIds: f.accountIds, content: "Orphan" })
          // A worker leases the job, stores its checkpoint, reaches the network, and dies before recording.
          const [job] = yield* queue.lease(yield* Clock.currentTimeMillis, 1, testOptions.leaseMs)
          const publisher = Option.getOrThrow((yield* Publishers).get("sandbox"))
          const account = Option.getOrThrow(yield* (yield* AccountRepo).findById(f.agent.workspaceId, f.accountIds[0]))
          const request = {
            account,
            credentials: null,
            postId: id,
            content: "Orphan",
            media: [],
            poll: null,
            cover: null,
            tiktokAiGenerated: false,
            replyTo: null
          }
          const handle = yield* publisher.prepare!(request)
          assert.isTrue(yield* queue.checkpoint(job, { step: 0, handle }))
          yield* publisher.publish(request, handle)
          yield* startWorker(testOptions)
          yield* TestClock.adjust(testOptions.leaseMs - testOptions.pollMs)
          assert.strictEqual(
            (yield* storedPost(f.agent, id)).targets[0].externalId,
            null,
            "nobody touches a leased job"
          )
          yield* TestClock.adjust(testOptions.pollMs)
          assert.strictEqual(net.published().length, 1)
          assert.strictEqual(net.published()[0].publishes, 1, "recovered from the network, not sent again")
          assert.strictEqual((yield* storedPost(f.agent, id)).targets[0].externalId, handle)
          assert.isFalse(yield* queue.complete(job), "the dead worker's lease is void")
        })
      )
  )

  it.effect(
    "the cover and the TikTok AI label reach the publisher as stored on the post; a target without a video gets no cover",
    () =>
      run(
        Effect.gen(function* () {
          const f = yield* setUp()
          const net = yield* ScriptedNetwork
          const video = upload(f.agent.workspaceId, {
            type: "video",
            mimeType: "video/mp4",
            durationMs: 5000,
            expiresAt: 3_600_000
          })
          yield* (yield* MediaRepo).insert(video)
          const posts = yield* PostRepo
          const [withVideo, textOnly] = [
            yield* post(f.agent, { accountIds: f.accountIds, content: "Labelled" }),
            yield* post(f.agent, { accountIds: f.accountIds, content: "Text" })
          ]
          yield* posts.update({
            ...(yield* storedPost(f.agent, withVideo)),
            mediaIds: [video.id],
            cover: { offsetMs: 1500 },
            tiktokAiGenerated: true
          })
          yield* posts.update({ ...(yield* storedPost(f.agent, textOnly)), cover: { offsetMs: 1500 } })
          yield* publishDueTargets(testOptions, 10)
          const requestOf = (postId: string) => net.published().find((r) => r.postId === postId)!.request
          const request = requestOf(withVideo)
          assert.deepStrictEqual(request.cover, { offsetMs: 1500 })
          assert.deepStrictEqual(
            request.media.map((m) => m.id),
            [video.id]
          )
          assert.strictEqual(requestOf(textOnly).cover, null)
          assert.isTrue(request.tiktokAiGenerated)
        })
      )
  )
})
