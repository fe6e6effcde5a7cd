import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { connectInBrowser } from "../support/connect.ts"
import { createKey } from "../../application/usecases/keys.ts"
import {
  defaultMetricsOptions,
  refreshDueMetrics,
  startMetricsWorker
} from "../../application/usecases/metrics/worker.ts"
import { metricsSummary, postMetrics, refreshPostMetrics } from "../../application/usecases/metrics/query.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { getPost } from "../../application/usecases/posts/query.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { type MetricsCapability, PublishError, Publishers } from "../../application/ports/Publishers.ts"
import { type Connector, Connectors } from "../../application/ports/Connectors.ts"
import * as TestHost from "../../hosts/test/TestHost.ts"

const HOUR = 3_600_000
const DAY = 24 * HOUR

const setUp = Effect.gen(function* () {
  const email = "figures@herald-customer.org"
  yield* signUp({ body: { email }, ip: "10.0.0.9" })
  const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last(email)!.text)![1]
  const { session } = yield* claimWorkspace(token, null)
  const { actor: person } = yield* authenticateSession(session.token)
  const agent = yield* authenticateKey((yield* createKey(person, { name: "bot", requireApproval: false })).apiKey)
  const { account } = yield* connectInBrowser(person, "sandbox")
  return { agent, person, accountId: account.id }
})

const publish = (agent: Effect.Success<typeof setUp>["agent"], accountId: string, content: string) =>
  Effect.gen(function* () {
    const created = yield* createPost(agent, { accountIds: [accountId], content }, null)
    const id = created.kind === "created" ? created.body.post.id : ""
    yield* publishDueTargets(defaultPipelineOptions, 100)
    return id
  })

const refresh = refreshDueMetrics(defaultMetricsOptions)

describe("what each post did", () => {
  it.effect("figures are read about 1 h, 24 h, 7 d and 30 d after publishing, then only on demand", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* publish(agent, accountId, "Counting")
      const pending = (yield* getPost(agent, id)).post.targets[0].metrics
      assert.deepStrictEqual(pending, { state: "pending", reason: null, latest: null })
      yield* TestClock.adjust(HOUR - 1)
      assert.strictEqual(yield* refresh, 0)
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* refresh, 1)
      assert.strictEqual(yield* refresh, 0)
      for (const at of [DAY, 7 * DAY, 30 * DAY]) {
        yield* TestClock.adjust(at - (yield* Effect.clockWith((c) => c.currentTimeMillis)))
        yield* refresh
      }
      yield* TestClock.adjust(365 * DAY)
      assert.strictEqual(yield* refresh, 0)
      const history = yield* postMetrics(agent, id)
      assert.strictEqual(history.targets[0].readings.length, 4)
      const latest = (yield* getPost(agent, id)).post.targets[0].metrics!
      assert.strictEqual(latest.state, "available")
      assert.isAbove(latest.latest!.figures.views.value!, 0)
      assert.strictEqual(latest.latest!.figures.views.value, latest.latest!.raw.views)
      // The sandbox has no video player: null with the reason, never a zero.
      assert.isNull(latest.latest!.figures.watchTimeSeconds.value)
      assert.include(latest.latest!.figures.watchTimeSeconds.reason!, "sandbox")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("on demand: read at once, and an account is asked again only after the floor", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* publish(agent, accountId, "Now please")
      const first = yield* refreshPostMetrics(agent, id)
      assert.deepStrictEqual(first, { queued: 1, notBefore: null })
      assert.strictEqual(yield* refresh, 1)
      const second = yield* refreshPostMetrics(agent, id)
      assert.strictEqual(second.queued, 0)
      assert.isNotNull(second.notBefore)
      assert.strictEqual(yield* refresh, 0)
      // The on-demand read did not use up the 1 h one.
      yield* TestClock.adjust(HOUR)
      assert.strictEqual(yield* refresh, 1)
      assert.strictEqual((yield* postMetrics(agent, id)).targets[0].readings.length, 2)
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("an account the network refuses figures for is marked unavailable once, not retried in a loop", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* publish(agent, accountId, "No analytics here #nometrics")
      yield* TestClock.adjust(HOUR)
      assert.strictEqual(yield* refresh, 1)
      const metrics = (yield* getPost(agent, id)).post.targets[0].metrics!
      assert.strictEqual(metrics.state, "unavailable")
      assert.include(metrics.reason!, "#nometrics")
      assert.isNull(metrics.latest)
      yield* TestClock.adjust(DAY)
      assert.strictEqual(yield* refresh, 0)
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect(
    "reconnecting an account clears its unavailable state: what was put off is read at once, not in 7 days",
    () =>
      Effect.gen(function* () {
        const connectors = yield* Connectors
        // The same network account each time, as a real network's OAuth answer names it.
        const same: Connector = {
          ...Option.getOrThrow(connectors.get("sandbox")),
          complete: () =>
            Effect.succeed([
              {
                profile: { externalId: "sandbox:same:1", name: "Same", username: "same", avatarUrl: null },
                credentials: null
              }
            ])
        }
        const sameAccount = Effect.provideService(Connectors, {
          ...connectors,
          get: (p) => (p === "sandbox" ? Option.some(same) : connectors.get(p))
        })
        const { agent, person, accountId } = yield* sameAccount(setUp)
        const id = yield* publish(agent, accountId, "No analytics here #nometrics")
        yield* TestClock.adjust(HOUR)
        assert.strictEqual(yield* refresh, 1)
        assert.strictEqual((yield* getPost(agent, id)).post.targets[0].metrics!.state, "unavailable")
        yield* TestClock.adjust(DAY)
        assert.strictEqual(yield* refresh, 0)
        const again = yield* sameAccount(connectInBrowser(person, "sandbox"))
        assert.strictEqual(again.account.id, accountId)
        assert.deepStrictEqual((yield* getPost(agent, id)).post.targets[0].metrics, {
          state: "pending",
          reason: null,
          latest: null
        })
        // Read again at once (the sandbox still refuses this post's figures: unavailable again, with its reason).
        assert.strictEqual(yield* refresh, 1)
        assert.include((yield* getPost(agent, id)).post.targets[0].metrics!.reason!, "#nometrics")
      }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a scheduler's lease loop reads what comes due, and stops leasing when stopped", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* publish(agent, accountId, "Read by the loop")
      const worker = yield* startMetricsWorker(defaultMetricsOptions)
      yield* TestClock.adjust(HOUR - defaultMetricsOptions.pollMs)
      assert.strictEqual((yield* postMetrics(agent, id)).targets[0].readings.length, 0)
      yield* TestClock.adjust(defaultMetricsOptions.pollMs)
      assert.strictEqual((yield* postMetrics(agent, id)).targets[0].readings.length, 1)
      yield* worker.stop(1_000)
      yield* TestClock.adjust(DAY)
      assert.strictEqual((yield* postMetrics(agent, id)).targets[0].readings.length, 1)
    }).pipe(Effect.scoped, Effect.provide(TestHost.layer()))
  )

  it.effect("GET /metrics sums the latest figures per day of publishing and account; bad ranges are 400", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const a = yield* publish(agent, accountId, "One")
      const b = yield* publish(agent, accountId, "Two")
      yield* TestClock.adjust(HOUR)
      yield* refresh
      const summary = yield* metricsSummary(agent, {})
      assert.strictEqual(summary.days.length, 1)
      const day = summary.days[0]
      assert.strictEqual(day.posts, 2)
      const views =
        (yield* postMetrics(agent, a)).targets[0].readings[0].raw.views! +
        (yield* postMetrics(agent, b)).targets[0].readings[0].raw.views!
      assert.strictEqual(day.figures.views.value, views)
      assert.isNull(day.figures.watchTimeSeconds.value)
      const bad = yield* Effect.flip(metricsSummary(agent, { from: "yesterday" }))
      assert.strictEqual(bad.code, "validation_failed")
      const wide = yield* Effect.flip(
        metricsSummary(agent, { from: "2020-01-01T00:00:00Z", to: "2021-01-01T00:00:00Z" })
      )
      assert.strictEqual(wide.code, "validation_failed")
    }).pipe(Effect.provide(TestHost.layer()))
  )

  it.effect("a throttled read postpones the account's targets to the reset the network named, then reads", () =>
    Effect.gen(function* () {
      const { agent, accountId } = yield* setUp
      const id = yield* publish(agent, accountId, "Busy network")
      const sandbox = Option.getOrThrow((yield* Publishers).get("sandbox"))
      let calls = 0
      const throttledOnce: MetricsCapability = {
        batch: 100,
        read: (request) =>
          ++calls === 1
            ? Effect.fail(PublishError.rateLimited({ message: "429", retryAfterMs: 30_000 }))
            : sandbox.metrics!.read(request)
      }
      const refreshHere = refresh.pipe(
        Effect.provideService(Publishers, { get: () => Option.some({ ...sandbox, metrics: throttledOnce }) })
      )
      yield* TestClock.adjust(HOUR)
      assert.strictEqual(yield* refreshHere, 1)
      assert.strictEqual((yield* getPost(agent, id)).post.targets[0].metrics!.state, "pending")
      yield* TestClock.adjust(29_999)
      assert.strictEqual(yield* refreshHere, 0)
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* refreshHere, 1)
      assert.strictEqual(calls, 2)
      assert.strictEqual((yield* postMetrics(agent, id)).targets[0].readings.length, 1)
      // The throttled read used up no scheduled one: the 24 h read is still to come.
      yield* TestClock.adjust(DAY)
      assert.strictEqual(yield* refreshHere, 1)
    }).pipe(Effect.provide(TestHost.layer()))
  )
})
