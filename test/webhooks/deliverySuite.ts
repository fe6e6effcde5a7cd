import { afterEach, assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import * as HttpWebhookSender from "../../adapters/webhooks/HttpWebhookSender.ts"
import { WebhookDeliveries } from "../../application/ports/WebhookDeliveries.ts"
import { WebhookRepo } from "../../application/ports/WebhookRepo.ts"
import { approvePost, reschedulePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { deliverDueWebhooks } from "../../application/usecases/webhooks/deliver.ts"
import { listEvents, LOOK_EVERY_MS, waitForPost } from "../../application/usecases/webhooks/feed.ts"
import { EventOutbox } from "../../application/ports/EventOutbox.ts"
import { listDeliveries, redeliver, testWebhook, updateWebhook } from "../../application/usecases/webhooks/manage.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { PostRepo } from "../../application/ports/PostRepo.ts"
import { Store } from "../../application/ports/Store.ts"
import { emit, newEvent, postEvent } from "../../application/usecases/webhooks/events.ts"
import { TEST_EVENT_TYPE } from "../../domain/events.ts"
import { TEST_DELIVERY_HELD_MS } from "../../domain/webhooks.ts"
import { setUp, testOptions } from "../scheduler/support.ts"
import { type Received, startReceiver } from "./receiver.ts"
import { register, testDeliveryOptions } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

const SECOND = 1000
const HOUR = 3600 * SECOND
const DAY = 24 * HOUR

type Receiver = Awaited<ReturnType<typeof startReceiver>>
const receivers: Array<Receiver> = []
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})
const receiver = (options: Parameters<typeof startReceiver>[0] = {}) =>
  Effect.promise(async () => {
    const r = await startReceiver(options)
    receivers.push(r)
    return r
  })

/** The delivery flows on a host; `layer` builds it afresh (empty storage) for each test. */
export const deliverySuite = (name: string, layer: () => Layer.Layer<any, any, never>) => {
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(layer()))

  const post = (actor: Actor, body: CreatePostBody) =>
    Effect.map(createPost(actor, body, null), (r) => {
      if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
      return r.body.post.id
    })

  /** The earliest next try of a pending delivery of the actor's endpoints (null: none pending). */
  const nextTry = (actor: Actor) =>
    Effect.gen(function* () {
      let next: number | null = null
      for (const w of yield* (yield* WebhookRepo).list(actor.workspaceId))
        for (const d of yield* (yield* WebhookDeliveries).list(actor.workspaceId, w.id, {
          limit: 1000,
          status: "pending"
        }))
          if (d.nextAttemptAt !== null && (next === null || d.nextAttemptAt < next)) next = d.nextAttemptAt
      return next
    })

  /** Delivers until nothing is pending, stepping the clock to each next try (at most `rounds` steps). */
  const deliverAll = (actor: Actor, rounds = 60) =>
    Effect.gen(function* () {
      for (let i = 0; i < rounds; i++) {
        if ((yield* deliverDueWebhooks(testDeliveryOptions)) > 0) continue
        const next = yield* nextTry(actor)
        if (next === null) return
        yield* TestClock.adjust(Math.max(1, next - (yield* Clock.currentTimeMillis)))
      }
    })

  /**
   * The feed as it shows once every older transaction has ended: on a shared PostgreSQL server an event
   * appears when no transaction begun before it is still running (milliseconds), so read again, in real
   * time, until `until` holds (at most ~5 s).
   */
  const feed = (
    actor: Actor,
    query: Parameters<typeof listEvents>[1],
    until: (events: ReadonlyArray<unknown>) => boolean
  ) =>
    Effect.gen(function* () {
      for (let i = 0; ; i++) {
        const answer = yield* listEvents(actor, query)
        if (until(answer.events) || i === 250) return answer
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 20)))
      }
    })

  /**
   * Counts a long-poll's looks in flight. On PostgreSQL a look is real I/O, which TestClock does not
   * wait for: the clock is moved only once the waiter is asleep between looks, so one step of the
   * clock is one step of the waiter.
   */
  const looks = () => {
    let inFlight = 0
    return {
      around: <A, E, R>(look: Effect.Effect<A, E, R>) =>
        Effect.suspend(() => {
          inFlight++
          return Effect.ensuring(
            look,
            Effect.sync(() => void inFlight--)
          )
        }),
      /** Until no look is in flight, then a real moment more for the waiter to go back to sleep. */
      settled: Effect.promise(async () => {
        for (let i = 0; i < 250 && inFlight > 0; i++) await new Promise((r) => setTimeout(r, 20))
        await new Promise((r) => setTimeout(r, 20))
      })
    }
  }

  /** The clock at a real moment, so signatures' timestamps are fresh for the library's check; times relative to it. */
  const startClock = Effect.gen(function* () {
    const t0 = Date.now()
    yield* TestClock.setTime(t0)
    return (ms: number) => new Date(t0 + ms).toISOString()
  })

  const types = (received: ReadonlyArray<Received>) => received.map((r) => r.type)

  describe(`webhook delivery (${name}, a real receiver on loopback, TestClock)`, () => {
    it.effect(
      "an agent's post a person approves: needs_approval, approved, published in order, signed; a receiver failing twice still gets each event once",
      () =>
        run(
          Effect.gen(function* () {
            yield* startClock
            const f = yield* setUp()
            const hooks = yield* receiver({ answer: (_, n) => (n <= 2 ? 500 : 200) })
            yield* register(f.asksFirst, hooks)
            const id = yield* post(f.asksFirst, { accountIds: f.accountIds, content: "Waiting for my human" })

            // post.created fails twice (5 s, then 30 s later it goes), and the post's later events wait behind it.
            assert.strictEqual(yield* deliverDueWebhooks(testDeliveryOptions), 1)
            assert.deepStrictEqual(types(hooks.received), ["post.created"])
            assert.strictEqual(
              yield* deliverDueWebhooks(testDeliveryOptions),
              0,
              "nothing of this post goes before the first event"
            )
            yield* TestClock.adjust(5 * SECOND)
            yield* deliverDueWebhooks(testDeliveryOptions)
            yield* TestClock.adjust(30 * SECOND)
            yield* deliverAll(f.agent)

            yield* approvePost(f.person, id)
            yield* publishDueTargets(testOptions, 10)
            yield* deliverAll(f.agent)

            assert.deepStrictEqual(types(hooks.received), [
              "post.created",
              "post.created",
              "post.created",
              "post.needs_approval",
              "post.approved",
              "target.published",
              "post.published"
            ])
            assert.isTrue(
              hooks.received.every((r) => r.verified),
              "every request verifies with the standardwebhooks library"
            )
            assert.strictEqual(
              new Set(hooks.received.slice(0, 3).map((r) => r.id)).size,
              1,
              "the retries carry the same webhook-id"
            )
            const accepted = hooks.accepted()
            assert.strictEqual(new Set(accepted.map((r) => r.id)).size, accepted.length, "each event accepted once")
            for (const r of accepted)
              assert.strictEqual((JSON.parse(r.body) as { id: string }).id, r.id, "the body's id is the webhook-id")
            const published = JSON.parse(accepted[accepted.length - 1]!.body) as {
              data: { post: { id: string; status: string } }
              timestamp: string
            }
            assert.strictEqual(published.data.post.id, id)
            assert.strictEqual(published.data.post.status, "published")
            assert.match(published.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          })
        )
    )

    it.effect("one post's failing events do not hold up another post's", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          let blocked = ""
          const hooks = yield* receiver({
            answer: (body) => (body.type === "post.created" && blocked === "" ? ((blocked = body.id), 503) : 200)
          })
          yield* register(f.agent, hooks, { eventTypes: ["post.created", "post.rescheduled"] })
          const first = yield* post(f.agent, {
            accountIds: f.accountIds,
            content: "first",
            scheduledFor: inFuture(DAY)
          })
          yield* reschedulePost(f.agent, first, { scheduledFor: inFuture(2 * DAY) })
          const second = yield* post(f.agent, {
            accountIds: f.accountIds,
            content: "second",
            scheduledFor: inFuture(DAY)
          })
          yield* deliverDueWebhooks(testDeliveryOptions)
          yield* deliverDueWebhooks(testDeliveryOptions)
          const postOf = (r: Received) => (JSON.parse(r.body) as { data: { post: { id: string } } }).data.post.id
          assert.deepStrictEqual(
            hooks.accepted().map(postOf),
            [second],
            "the second post's event went while the first's waits for its retry"
          )
          yield* TestClock.adjust(5 * SECOND)
          yield* deliverAll(f.agent)
          assert.deepStrictEqual(
            hooks.accepted().map((r) => [postOf(r), r.type]),
            [
              [second, "post.created"],
              [first, "post.created"],
              [first, "post.rescheduled"]
            ]
          )
        })
      )
    )

    it.effect("an endpoint failing for days is turned off and its owner e-mailed; nothing more is queued for it", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          const hooks = yield* receiver({ answer: () => 500 })
          const webhookId = yield* register(f.agent, hooks)
          const id = yield* post(f.agent, {
            accountIds: f.accountIds,
            content: "later",
            scheduledFor: inFuture(30 * DAY)
          })
          yield* deliverAll(f.agent)
          // The schedule ran out after about three days: the event failed for good, the endpoint is still on.
          const [first] = (yield* listDeliveries(f.agent, webhookId, {})).deliveries
          assert.strictEqual(first!.status, "failed")
          assert.strictEqual(first!.attempts, 13)
          const elapsed = (yield* Clock.currentTimeMillis) - Date.parse(inFuture(0))
          assert.isTrue(elapsed > 3 * DAY && elapsed < 4 * DAY, `gave up after ${elapsed} ms`)
          assert.isTrue(Option.getOrThrow(yield* (yield* WebhookRepo).find(f.agent.workspaceId, webhookId)).enabled)
          yield* TestClock.adjust(2 * DAY)
          yield* reschedulePost(f.agent, id, { scheduledFor: inFuture(40 * DAY) })
          yield* deliverDueWebhooks(testDeliveryOptions)
          const webhook = Option.getOrThrow(yield* (yield* WebhookRepo).find(f.agent.workspaceId, webhookId))
          assert.isFalse(webhook.enabled)
          assert.match(webhook.disabledReason!, /Every delivery failed from/)
          const mail = (yield* SentMail).last("owner@herald-customer.org")!
          assert.match(mail.subject, /webhook was turned off/)
          assert.include(mail.text, hooks.url)
          yield* reschedulePost(f.agent, id, { scheduledFor: inFuture(41 * DAY) })
          assert.strictEqual(
            (yield* listDeliveries(f.agent, webhookId, {})).deliveries.length,
            2,
            "a disabled endpoint gets no new deliveries"
          )
          // Turned on again by a person: its streak starts afresh.
          const on = yield* updateWebhook(f.person, webhookId, { enabled: true })
          assert.isTrue(on.webhook.enabled)
          assert.isNull(on.webhook.failingSince)
        })
      )
    )

    it.effect("the test endpoint sends webhook.test at once and answers with the receiver's status", () =>
      run(
        Effect.gen(function* () {
          yield* startClock
          const f = yield* setUp()
          const hooks = yield* receiver()
          const webhookId = yield* register(f.agent, hooks, { eventTypes: ["post.published"] })
          const { delivery } = yield* testWebhook(f.agent, webhookId)
          assert.strictEqual(delivery.status, "succeeded")
          assert.strictEqual(delivery.responseCode, 200)
          assert.strictEqual(delivery.eventType, "webhook.test")
          assert.deepStrictEqual(types(hooks.received), ["webhook.test"])
          assert.isTrue(hooks.received[0]!.verified)
          // A receiver that refuses it: the answer says so, and the test event is not retried.
          yield* Effect.promise(() => hooks.close())
          const again = yield* testWebhook(f.agent, webhookId)
          assert.strictEqual(again.delivery.status, "failed")
          assert.isNull(again.delivery.responseCode)
          assert.match(again.delivery.error!, /Connection failed/)
        })
      )
    )

    it.effect(
      "a test event's delivery is the caller's alone: the queue never races it (it takes it only if the caller died)",
      () =>
        run(
          Effect.gen(function* () {
            yield* startClock
            const f = yield* setUp()
            const hooks = yield* receiver()
            const webhookId = yield* register(f.agent, hooks)
            // Written as POST /webhooks/{id}/test writes it; a loop looking at the queue now finds nothing due.
            const at = yield* Clock.currentTimeMillis
            const event = yield* newEvent(
              TEST_EVENT_TYPE,
              f.agent.workspaceId,
              { kind: "webhook", id: webhookId },
              webhookId,
              at,
              { webhookId, message: "A test event from Herald." }
            )
            yield* (yield* Store).transaction(emit([{ ...event, onlyWebhookId: webhookId }]))
            assert.strictEqual(yield* deliverDueWebhooks(testDeliveryOptions), 0)
            assert.deepStrictEqual(hooks.received, [])
            // A caller that died before sending it: the queue sends it once the caller's time is over.
            yield* TestClock.adjust(TEST_DELIVERY_HELD_MS)
            assert.strictEqual(yield* deliverDueWebhooks(testDeliveryOptions), 1)
            assert.deepStrictEqual(types(hooks.received), ["webhook.test"])
            // And the endpoint answers with the receiver's status every time, the loop running or not.
            for (let i = 0; i < 5; i++) {
              const { delivery } = yield* testWebhook(f.agent, webhookId)
              assert.strictEqual(delivery.status, "succeeded")
              assert.strictEqual(yield* deliverDueWebhooks(testDeliveryOptions), 0)
            }
          })
        )
    )

    it.effect("a delivery that failed for good can be sent again, with the same id", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          let healthy = false
          const hooks = yield* receiver({ answer: () => (healthy ? 200 : 500) })
          const webhookId = yield* register(f.agent, hooks)
          yield* post(f.agent, { accountIds: f.accountIds, content: "x", scheduledFor: inFuture(30 * DAY) })
          yield* deliverAll(f.agent)
          const [failed] = (yield* listDeliveries(f.agent, webhookId, { status: "failed" })).deliveries
          healthy = true
          const again = yield* redeliver(f.agent, webhookId, failed!.id)
          assert.strictEqual(again.delivery.status, "pending")
          yield* deliverDueWebhooks(testDeliveryOptions)
          const [done] = (yield* listDeliveries(f.agent, webhookId, {})).deliveries
          assert.strictEqual(done!.status, "succeeded")
          assert.strictEqual(hooks.accepted().length, 1)
          assert.strictEqual(hooks.accepted()[0]!.id, failed!.eventId)
          assert.strictEqual(new Set(hooks.received.map((r) => r.id)).size, 1)
        })
      )
    )

    it.effect("GET /events waits for the next event: an agent learns its post was approved in one call", () =>
      run(
        Effect.gen(function* () {
          yield* startClock
          const f = yield* setUp()
          const id = yield* post(f.asksFirst, { accountIds: f.accountIds, content: "Approve me" })
          const seen = yield* feed(f.asksFirst, { postId: id }, (e) => e.length >= 2)
          assert.deepStrictEqual(
            seen.events.map((e) => (e as { type: string }).type),
            ["post.created", "post.needs_approval"]
          )
          const watch = looks()
          const outbox = yield* EventOutbox
          const waiting = yield* Effect.forkChild(
            listEvents(f.asksFirst, { postId: id, after: seen.nextCursor, waitSeconds: "30" }).pipe(
              Effect.provideService(EventOutbox, { ...outbox, list: (...args) => watch.around(outbox.list(...args)) })
            )
          )
          yield* TestClock.adjust(10 * SECOND)
          yield* watch.settled
          assert.isUndefined(waiting.pollUnsafe(), "nothing yet: the call waits")
          yield* approvePost(f.person, id)
          // A look begun before the approval may miss it; the next one, a polling step later, may not.
          yield* watch.settled
          yield* TestClock.adjust(LOOK_EVERY_MS)
          yield* watch.settled
          assert.isDefined(
            waiting.pollUnsafe(),
            "answered within one polling step of the approval, not at its deadline"
          )
          const answer = yield* Fiber.join(waiting)
          assert.deepStrictEqual(
            answer.events.map((e) => (e as { type: string }).type),
            ["post.approved"]
          )
          // Nothing new: an empty answer when the wait is over, with the same cursor.
          const idle = yield* Effect.forkChild(
            listEvents(f.asksFirst, { postId: id, after: answer.nextCursor, waitSeconds: "5" })
          )
          yield* TestClock.adjust(5 * SECOND)
          const empty = yield* Fiber.join(idle)
          assert.deepStrictEqual(empty.events, [])
          assert.strictEqual(empty.nextCursor, answer.nextCursor)
        })
      )
    )

    it.effect("wait_for_post answers within one polling step of the person's decision", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          const id = yield* post(f.asksFirst, {
            accountIds: f.accountIds,
            content: "Approve me, agent waiting",
            scheduledFor: inFuture(DAY)
          })
          const watch = looks()
          const repo = yield* PostRepo
          const waiting = yield* Effect.forkChild(
            waitForPost(f.asksFirst, id, "decision", 30).pipe(
              Effect.provideService(PostRepo, { ...repo, findById: (...args) => watch.around(repo.findById(...args)) })
            )
          )
          yield* TestClock.adjust(10 * SECOND)
          yield* watch.settled
          assert.isUndefined(waiting.pollUnsafe(), "nothing yet: the call waits")
          yield* approvePost(f.person, id)
          yield* watch.settled
          yield* TestClock.adjust(LOOK_EVERY_MS)
          yield* watch.settled
          assert.isDefined(
            waiting.pollUnsafe(),
            "answered within one polling step of the approval, not at its deadline"
          )
          const answer = yield* Fiber.join(waiting)
          assert.deepStrictEqual([answer.settled, answer.status], [true, "scheduled"])
        })
      )
    )

    it.effect("GET /events pages through a workspace's events in the order they were written", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          const ids: Array<string> = []
          for (let i = 0; i < 12; i++)
            ids.push(yield* post(f.agent, { accountIds: f.accountIds, content: `n${i}`, scheduledFor: inFuture(DAY) }))
          const seen: Array<string> = []
          let after: string | undefined
          for (let page = 0; page < 10; page++) {
            const answer = yield* feed(
              f.agent,
              { after, limit: "5", types: "post.created" },
              (e) => e.length === 5 || seen.length + e.length === 12
            )
            if (answer.events.length === 0) break
            seen.push(...answer.events.map((e) => (e as { data: { post: { id: string } } }).data.post.id))
            after = answer.nextCursor
          }
          assert.deepStrictEqual(seen, ids)
        })
      )
    )

    it.effect("the post that uses a Free month's last slot writes usage.limit_reached with it, once", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          for (let i = 0; i < 30; i++)
            yield* post(f.agent, { accountIds: f.accountIds, content: `n${i}`, scheduledFor: inFuture(DAY) })
          const over = yield* Effect.flip(
            createPost(f.agent, { accountIds: f.accountIds, content: "one too many" }, null)
          )
          assert.strictEqual(over.code, "post_limit_reached")
          const { events } = yield* feed(f.agent, { types: "usage.limit_reached" }, (e) => e.length > 0)
          assert.strictEqual(events.length, 1)
          assert.deepStrictEqual((events[0] as { data: unknown }).data, {
            month: inFuture(0).slice(0, 7),
            used: 30,
            limit: 30,
            plan: "free"
          })
          assert.strictEqual(
            (yield* feed(f.agent, { types: "post.created", limit: "100" }, (e) => e.length >= 30)).events.length,
            30
          )
        })
      )
    )

    it.effect("an event is written with its change or not at all: a transaction that fails leaves neither", () =>
      run(
        Effect.gen(function* () {
          yield* startClock
          const f = yield* setUp()
          yield* register(f.agent, yield* receiver())
          const id = yield* post(f.agent, {
            accountIds: f.accountIds,
            content: "x",
            scheduledFor: new Date((yield* Clock.currentTimeMillis) + DAY).toISOString()
          })
          const before = (yield* feed(f.agent, { postId: id }, (e) => e.length >= 1)).events.length
          const queued = yield* (yield* WebhookDeliveries).pendingCount()
          assert.strictEqual(queued, 1, "post.created is queued for the endpoint")
          const failed = yield* Effect.flip(
            (yield* Store).transaction(
              Effect.gen(function* () {
                const stored = Option.getOrThrow(yield* (yield* PostRepo).findById(f.agent.workspaceId, id))
                yield* (yield* PostRepo).update({ ...stored, content: "changed" })
                yield* emit([
                  yield* postEvent("post.rescheduled", stored, yield* Clock.currentTimeMillis, {
                    previousScheduledFor: null
                  })
                ])
                return yield* Effect.fail("storage broke" as const)
              })
            )
          )
          assert.strictEqual(failed, "storage broke")
          assert.strictEqual(Option.getOrThrow(yield* (yield* PostRepo).findById(f.agent.workspaceId, id)).content, "x")
          yield* Effect.promise(() => new Promise((r) => setTimeout(r, 100)))
          assert.strictEqual(
            (yield* listEvents(f.agent, { postId: id })).events.length,
            before,
            "no event without its change"
          )
          assert.strictEqual(yield* (yield* WebhookDeliveries).pendingCount(), queued, "and no delivery either")
        })
      )
    )

    it.effect(
      "an address that resolves to loopback is refused at delivery when loopback is not allowed (no request is made)",
      () =>
        run(
          Effect.gen(function* () {
            const inFuture = yield* startClock
            const f = yield* setUp()
            const hooks = yield* receiver()
            const webhookId = yield* register(f.agent, {
              url: `http://localhost:${hooks.port}/hooks`,
              setSecret: hooks.setSecret
            })
            yield* post(f.agent, { accountIds: f.accountIds, content: "x", scheduledFor: inFuture(DAY) })
            yield* deliverDueWebhooks(testDeliveryOptions).pipe(
              Effect.provide(HttpWebhookSender.layer({ allowLoopback: false }))
            )
            assert.strictEqual(hooks.received.length, 0)
            const [d] = (yield* listDeliveries(f.agent, webhookId, {})).deliveries
            assert.strictEqual(d!.status, "pending")
            assert.isNull(d!.responseCode)
            assert.match(d!.error!, /loopback/)
          })
        )
    )

    it.effect("a redirect is not followed: the delivery fails with the 3xx and the other host gets nothing", () =>
      run(
        Effect.gen(function* () {
          const inFuture = yield* startClock
          const f = yield* setUp()
          const elsewhere = yield* receiver()
          const redirecting = yield* Effect.promise(async () => {
            const { createServer } = await import("node:http")
            const server = createServer((_req, res) => res.writeHead(307, { location: elsewhere.url }).end())
            await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
            receivers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) } as Receiver)
            return `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}/hooks`
          })
          const webhookId = yield* register(f.agent, { url: redirecting, setSecret: () => undefined })
          yield* post(f.agent, { accountIds: f.accountIds, content: "x", scheduledFor: inFuture(DAY) })
          yield* deliverDueWebhooks(testDeliveryOptions)
          const [d] = (yield* listDeliveries(f.agent, webhookId, {})).deliveries
          assert.strictEqual(d!.responseCode, 307)
          assert.match(d!.error!, /redirects are not followed/)
          assert.strictEqual(elsewhere.received.length, 0)
        })
      )
    )
  })
}
