import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { Behaviour, ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { disconnectAccount } from "../../application/usecases/accounts.ts"
import { connectInBrowser } from "../support/connect.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { claimWorkspace } from "../../application/usecases/claim.ts"
import { approvePost, cancelPost, rejectPost, reschedulePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import { reorderQueue } from "../../application/usecases/planning/queue.ts"
import { putSchedules, setQueuePaused } from "../../application/usecases/planning/schedules.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { eventSchemas } from "../../domain/contract/events.ts"
import { eventTypes } from "../../domain/events.ts"
import { takeDownPost, takeDownTarget } from "../../application/usecases/posts/takedown.ts"
import { updatePost } from "../../application/usecases/posts/update.ts"
import { testOptions } from "../scheduler/support.ts"
import { webhooksLayer } from "./support.ts"
import type { CreatePostBody } from "../../domain/contract/postRequest.ts"

const MINUTE = 60_000

const post = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post.id
  })

/** Every event of the workspace, oldest first, each checked against its type's schema. */
const allEvents = (actor: Actor) =>
  Effect.gen(function* () {
    const events: Array<{
      id: string
      type: string
      resource: { type: string; id: string }
      data: Record<string, unknown>
    }> = []
    let after: string | undefined
    while (true) {
      const page = yield* listEvents(actor, { after, limit: "100" })
      if (page.events.length === 0) return events
      for (const body of page.events) {
        const type = (body as { type: keyof typeof eventSchemas }).type
        Schema.decodeUnknownSync(eventSchemas[type])(body)
        events.push(body as (typeof events)[number])
      }
      after = page.nextCursor
    }
  })

describe("events: every type comes from its flow, in the outbox with its change", () => {
  it.effect("sign-up to usage limit: each of the 26 event types, each body matching its schema", () =>
    Effect.gen(function* () {
      const net = yield* ScriptedNetwork
      const email = "events@herald-customer.org"
      const signed = yield* signUp({ body: { email, agentName: "Agent" }, ip: "10.0.0.2" })
      const asksFirst = yield* authenticateKey(signed.body.apiKey!)
      const token = /token=([A-Za-z0-9]+)/.exec((yield* SentMail).last(email)!.text)![1]!
      const { session } = yield* claimWorkspace(token, null) // workspace.claimed
      const { actor: person } = yield* authenticateSession(session.token)
      const connect = (username: string) =>
        Effect.gen(function* () {
          return (yield* connectInBrowser(person, "sandbox", { username })).account.id // account.connected
        })
      const [a, b, c] = [yield* connect("a"), yield* connect("b"), yield* connect("c")]

      const approved = yield* post(asksFirst, { accountIds: [a], content: "ok", firstComment: "first!" }) // post.created, post.needs_approval
      yield* approvePost(person, approved) // post.approved
      yield* publishDueTargets(testOptions, 10) // target.published, post.published
      yield* TestClock.adjust(testOptions.firstCommentDelayMs)
      yield* publishDueTargets(testOptions, 10) // first_comment.published

      yield* rejectPost(person, yield* post(asksFirst, { accountIds: [a], content: "no" })) // post.rejected
      const later = yield* post(person, {
        accountIds: [a],
        content: "later",
        scheduledFor: new Date(60 * MINUTE).toISOString()
      })
      yield* reschedulePost(person, later, { scheduledFor: new Date(120 * MINUTE).toISOString() }) // post.rescheduled
      yield* updatePost(person, later, { content: "later, edited" }) // post.updated
      yield* cancelPost(person, later) // post.cancelled

      net.script("half", Behaviour.fail("duplicate_content", false))
      const half = yield* post(person, { accountIds: [a, b], content: "half" }) // target.failed, post.partially_published
      yield* publishDueTargets(testOptions, 10)
      net.scriptUnpublish(Behaviour.fail("upstream_rejected", false))
      yield* takeDownPost(person, half) // the target that went out
      yield* publishDueTargets(testOptions, 10) // target.deletion_failed
      yield* takeDownTarget(asksFirst, approved, a) // target.deletion_requested
      yield* takeDownTarget(person, approved, a)
      yield* publishDueTargets(testOptions, 10) // target.deleted
      net.script("none", Behaviour.fail("duplicate_content", false))
      yield* post(person, { accountIds: [a], content: "none" }) // post.failed
      yield* publishDueTargets(testOptions, 10)
      net.script("lost comment", Behaviour.ok, Behaviour.fail("duplicate_content", false))
      yield* post(person, { accountIds: [a], content: "lost comment", firstComment: "lost comment" })
      yield* publishDueTargets(testOptions, 10)
      yield* TestClock.adjust(testOptions.firstCommentDelayMs)
      yield* publishDueTargets(testOptions, 10) // first_comment.failed

      net.script("revoked", Behaviour.revoked)
      yield* post(person, { accountIds: [c], content: "revoked" }) // account.needs_reconnection
      yield* publishDueTargets(testOptions, 10)
      yield* disconnectAccount(person, b) // account.disconnected

      // Posting queues: schedules.updated, queue.paused, queue.resumed, queue.reordered.
      const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const
      const put = yield* putSchedules(person, {
        schedules: [{ accountIds: [a], slots: days.map((day) => ({ day, time: "09:00" })) }]
      })
      const scheduleId = put.schedules[0]!.id
      const q1 = yield* post(person, { accountIds: [a], content: "queued 1", queue: true })
      const q2 = yield* post(person, { accountIds: [a], content: "queued 2", queue: true })
      yield* setQueuePaused(person, scheduleId, true)
      yield* setQueuePaused(person, scheduleId, false)
      yield* reorderQueue(person, scheduleId, [q2, q1])

      // A Free workspace: the post that takes the month to 30 reports it, once.
      for (let i = 0; i < 40; i++)
        if ((yield* Effect.result(post(person, { accountIds: [a], content: `filler ${i}` })))._tag === "Failure") break // usage.limit_reached

      const events = yield* allEvents(person)
      const seen = new Set(events.map((e) => e.type))
      assert.deepStrictEqual(
        eventTypes.filter((t) => !seen.has(t)),
        [],
        "every event type was produced"
      )
      assert.strictEqual(events.filter((e) => e.type === "usage.limit_reached").length, 1)
      assert.deepStrictEqual(events.filter((e) => e.type === "usage.limit_reached")[0]!.data, {
        month: new Date(0).toISOString().slice(0, 7),
        used: 30,
        limit: 30,
        plan: "free"
      })
      // A post's events in the order they happened.
      const ofApproved = events.filter((e) => e.resource.id === approved).map((e) => e.type)
      assert.deepStrictEqual(ofApproved, [
        "post.created",
        "post.needs_approval",
        "post.approved",
        "target.published",
        "post.published",
        "first_comment.published",
        "target.deletion_requested",
        "target.deleted"
      ])
      const reconnection = events.filter((e) => e.type === "account.needs_reconnection")
      assert.strictEqual(reconnection.length, 1)
      assert.strictEqual(
        (reconnection[0]!.data as { account: { id: string; status: string } }).account.status,
        "needs_reconnection"
      )
      // Event data agrees with the event: the disconnected account shows as disconnected, a partly
      // published post as published (its failed target says why), never as failed.
      const disconnected = events.filter((e) => e.type === "account.disconnected")
      assert.deepStrictEqual(
        disconnected
          .map((e) => (e.data as { account: { id: string; status: string } }).account)
          .map((a) => [a.id, a.status]),
        [[b, "disconnected"]]
      )
      const partly = events.filter((e) => e.type === "post.partially_published")
      assert.strictEqual(partly.length, 1)
      const partlyPost = (partly[0]!.data as { post: { status: string; targets: Array<{ status: string }> } }).post
      assert.strictEqual(partlyPost.status, "published")
      assert.deepStrictEqual(partlyPost.targets.map((t) => t.status).sort(), ["failed", "published"])
      for (const e of events.filter((e) => e.type === "post.failed"))
        assert.strictEqual((e.data as { post: { status: string } }).post.status, "failed")
      for (const e of events.filter((e) => e.type === "post.published"))
        assert.strictEqual((e.data as { post: { status: string } }).post.status, "published")
      assert.strictEqual(new Set(events.map((e) => e.id)).size, events.length, "ids are unique")
    }).pipe(Effect.provide(webhooksLayer()))
  )
})
