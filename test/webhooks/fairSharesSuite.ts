import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  type DeliveryLimits,
  type DeliveryRecord,
  type LeasedDelivery,
  WebhookDeliveries
} from "../../application/ports/WebhookDeliveries.ts"
import { Store } from "../../application/ports/Store.ts"
import { emit, newEvent } from "../../application/usecases/webhooks/events.ts"
import { createWebhook } from "../../application/usecases/webhooks/manage.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { seedWorkspace } from "../scheduler/pg.ts"
import { post } from "../contract/fixtures.ts"
import { postView } from "../../application/usecases/posts/view.ts"

const T0 = 1_800_000_000_000
const LEASE = 10_000
const limits: DeliveryLimits = {
  perEndpoint: 3,
  perWorkspace: 5,
  hangsToPause: 2,
  pauseMs: 30_000,
  maxPauseMs: 120_000
}

/** `n` events of their own posts (each its own ordering key), written at `at`, to every endpoint of the actor's workspace. */
const events = (actor: Actor, n: number, at: number) =>
  Effect.gen(function* () {
    const made = []
    for (let i = 0; i < n; i++) {
      const postId = `post_${at}_${i}_${Math.random().toString(36).slice(2, 8)}`
      const data = { post: postView(post(actor.workspaceId, { id: postId, createdAt: at, updatedAt: at })) }
      made.push(yield* newEvent("post.created", actor.workspaceId, { kind: "post", id: postId }, postId, at, data))
    }
    yield* (yield* Store).transaction(emit(made))
  })

const endpoint = (actor: Actor, n: number) =>
  Effect.map(createWebhook(actor, { url: `http://127.0.0.1:9/hook${n}` }), (c) => c.webhook.id)

const tried = (d: LeasedDelivery, at: number, hung: boolean): DeliveryRecord => ({
  delivery: d,
  at,
  result: hung ? { _tag: "Retry", retryAt: at + 5_000 } : { _tag: "Succeeded" },
  responseCode: hung ? null : 200,
  responseTimeMs: hung ? 10_000 : 5,
  error: hung ? "Timed out." : null,
  hung
})

const count = (leased: ReadonlyArray<LeasedDelivery>, key: (d: LeasedDelivery) => string) => {
  const by = new Map<string, number>()
  for (const d of leased) by.set(key(d), (by.get(key(d)) ?? 0) + 1)
  return by
}

/** The queue's fair shares on one storage: caps, turns between workspaces, circuits. `layer` builds it afresh per test. */
export const fairSharesSuite = (name: string, layer: () => Layer.Layer<any, any, never>) => {
  const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      return yield* effect
    }).pipe(Effect.provide(layer()))

  describe(`webhook fair shares (${name})`, () => {
    it.effect("tries in flight are capped per endpoint and per workspace, counting leases already held", () =>
      run(
        Effect.gen(function* () {
          const { agent } = yield* seedWorkspace(0)
          const [a, b] = [yield* endpoint(agent, 1), yield* endpoint(agent, 2)]
          yield* events(agent, 10, T0)
          const q = yield* WebhookDeliveries
          const first = yield* q.lease(T0, 100, LEASE, limits)
          const perHook = count(first, (d) => d.webhook.id)
          assert.strictEqual(first.length, limits.perWorkspace)
          assert.isAtMost(perHook.get(a) ?? 0, limits.perEndpoint)
          assert.isAtMost(perHook.get(b) ?? 0, limits.perEndpoint)
          // While they are held, nothing more for this workspace; one recorded frees one slot.
          assert.deepStrictEqual(yield* q.lease(T0 + 1, 100, LEASE, limits), [])
          yield* q.record([tried(first[0]!, T0 + 2, false)], limits)
          assert.strictEqual((yield* q.lease(T0 + 3, 100, LEASE, limits)).length, 1)
        })
      )
    )

    it.effect("the heartbeat renews a held lease, never one recorded or taken over by another worker", () =>
      run(
        Effect.gen(function* () {
          const { agent } = yield* seedWorkspace(0)
          yield* endpoint(agent, 1)
          yield* events(agent, 3, T0)
          const q = yield* WebhookDeliveries
          const [a, b, c] = yield* q.lease(T0, 3, LEASE, limits)
          yield* q.record([tried(b!, T0 + 1, false)], limits)
          assert.deepStrictEqual([...(yield* q.extend([a!], T0 + 2 * LEASE))], [a!.id])
          // c's lease runs out; another worker takes it; the first worker's renewal changes nothing.
          const [again] = yield* q.lease(T0 + LEASE, 3, LEASE, limits)
          assert.strictEqual(again?.id, c!.id)
          assert.deepStrictEqual([...(yield* q.extend([a!, b!, c!], T0 + 3 * LEASE))], [a!.id])
          assert.deepStrictEqual(yield* q.lease(T0 + 1.5 * LEASE, 3, LEASE, limits), [], "a held, c with its new owner")
        })
      )
    )

    it.effect("workspaces take turns: a newer workspace's delivery goes before an older backlog's next ones", () =>
      run(
        Effect.gen(function* () {
          const busy = (yield* seedWorkspace(0)).agent
          const quiet = (yield* seedWorkspace(0)).agent
          yield* endpoint(busy, 1)
          yield* endpoint(quiet, 1)
          yield* events(busy, 8, T0)
          yield* events(quiet, 2, T0 + 1_000)
          const wide: DeliveryLimits = { ...limits, perEndpoint: 100, perWorkspace: 100 }
          const leased = yield* (yield* WebhookDeliveries).lease(T0 + 2_000, 4, LEASE, wide)
          const bySpace = count(leased, (d) => d.webhook.workspaceId)
          // First come, first served would give the busy workspace's four oldest.
          assert.strictEqual(bySpace.get(quiet.workspaceId), 2)
          assert.strictEqual(bySpace.get(busy.workspaceId), 2)
        })
      )
    )

    it.effect(
      "an endpoint that hangs is paused, its waiting deliveries with it; then one try at a time until it answers",
      () =>
        run(
          Effect.gen(function* () {
            const { agent } = yield* seedWorkspace(0)
            const hook = yield* endpoint(agent, 1)
            yield* events(agent, 6, T0)
            const q = yield* WebhookDeliveries
            const first = yield* q.lease(T0, 100, LEASE, limits)
            assert.strictEqual(first.length, limits.perEndpoint)
            // Two hung tries in a row: the circuit opens for pauseMs.
            const at = T0 + 10_000
            yield* q.record(
              first.slice(0, limits.hangsToPause).map((d) => tried(d, at, true)),
              limits
            )
            yield* q.record(
              first.slice(limits.hangsToPause).map((d) => tried(d, at, true)),
              limits
            )
            assert.deepStrictEqual(
              yield* q.lease(at + 5_000, 100, LEASE, limits),
              [],
              "paused: its retries and the rest wait"
            )
            assert.deepStrictEqual(yield* q.lease(at + limits.pauseMs - 1, 100, LEASE, limits), [])
            const pending = yield* q.list(agent.workspaceId, hook, { limit: 10, status: "pending" })
            assert.isTrue(pending.every((d) => d.nextAttemptAt !== null && d.nextAttemptAt >= at + 5_000))
            // Half open: one try; while it is out, nothing else.
            const probe = yield* q.lease(at + 4 * limits.pauseMs, 100, LEASE, limits)
            assert.strictEqual(probe.length, 1)
            assert.deepStrictEqual(yield* q.lease(at + 4 * limits.pauseMs + 1, 100, LEASE, limits), [])
            // It answers: the circuit closes and the endpoint takes its full share again.
            yield* q.record([tried(probe[0]!, at + 4 * limits.pauseMs + 2, false)], limits)
            const after = yield* q.lease(at + 4 * limits.pauseMs + 3, 100, LEASE, limits)
            assert.strictEqual(after.length, limits.perEndpoint)
            assert.isTrue(after.every((d) => d.webhook.hangs === 0))
          })
        )
    )

    it.effect("a hanging endpoint paused a second time waits twice as long", () =>
      run(
        Effect.gen(function* () {
          const { agent } = yield* seedWorkspace(0)
          yield* endpoint(agent, 1)
          yield* events(agent, 4, T0)
          const q = yield* WebhookDeliveries
          const first = yield* q.lease(T0, 2, LEASE, limits)
          yield* q.record(
            first.map((d) => tried(d, T0 + 10_000, true)),
            limits
          )
          const reopen = T0 + 10_000 + limits.pauseMs
          const probe = yield* q.lease(reopen, 100, LEASE, limits)
          assert.strictEqual(probe.length, 1)
          yield* q.record([tried(probe[0]!, reopen + 10_000, true)], limits)
          assert.deepStrictEqual(yield* q.lease(reopen + 10_000 + 2 * limits.pauseMs - 1, 100, LEASE, limits), [])
          assert.strictEqual((yield* q.lease(reopen + 10_000 + 2 * limits.pauseMs, 100, LEASE, limits)).length, 1)
        })
      )
    )
  })
}
