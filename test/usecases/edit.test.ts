import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ScriptedNetwork } from "../../adapters/testing/ScriptedPublisher.ts"
import { AccountRepo } from "../../application/ports/AccountRepo.ts"
import { JobQueue } from "../../application/ports/JobQueue.ts"
import { ScheduleRepo } from "../../application/ports/ScheduleRepo.ts"
import { listQueue } from "../../application/usecases/planning/queue.ts"
import { putSchedules, setQueuePaused } from "../../application/usecases/planning/schedules.ts"
import { approvePost } from "../../application/usecases/posts/actions.ts"
import { createPost } from "../../application/usecases/posts/create.ts"
import { updatePost } from "../../application/usecases/posts/update.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { listEvents } from "../../application/usecases/webhooks/feed.ts"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatePostBody, UpdatePostBody } from "../../domain/contract/postRequest.ts"
import type { Platform } from "../../domain/platforms.ts"
import { at, pipelineLayer, setUp, storedPost, testOptions } from "../scheduler/support.ts"

const HOUR = 3_600_000

const create = (actor: Actor, body: CreatePostBody) =>
  Effect.map(createPost(actor, body, null), (r) => {
    if (r.kind !== "created") throw new Error(`expected a created post, got ${r.kind}`)
    return r.body.post
  })

/** An edit that must be stored (not a dry run). */
const edit = (actor: Actor, id: string, body: UpdatePostBody) =>
  Effect.map(updatePost(actor, id, body), (r) => {
    if (!("post" in r)) throw new Error("expected the edited post")
    return r
  })

/** An edit's dry run. */
const dryEdit = (actor: Actor, id: string, body: UpdatePostBody) =>
  Effect.map(updatePost(actor, id, { ...body, dryRun: true }), (r) => {
    if (!("changes" in r)) throw new Error("expected a dry run")
    return r
  })

type FeedEvent = { readonly type: string; readonly data: { readonly changes?: unknown } }
const feed = (actor: Actor, postId: string, types?: string) =>
  Effect.map(listEvents(actor, { postId, types }), (f) => f.events as ReadonlyArray<FeedEvent>)

const jobsOf = (postId: string) =>
  Effect.map(
    Effect.flatMap(JobQueue, (q) => q.pending()),
    (jobs) => jobs.filter((j) => j.postId === postId).map((j) => [j.accountId, j.runAt] as const)
  )

const eventTypesOf = (actor: Actor, postId: string) =>
  Effect.map(feed(actor, postId), (events) => events.map((e) => e.type))

/** A connected account of another network in the workspace (its publisher is the scripted one). */
const addAccount = (actor: Actor, id: string, platform: Platform) =>
  Effect.flatMap(AccountRepo, (accounts) =>
    accounts.upsert({
      id,
      workspaceId: actor.workspaceId,
      platform,
      name: id,
      username: id,
      avatarUrl: null,
      status: "connected",
      connectedAt: 0,
      externalId: id
    })
  )

describe("editing a post before it goes out (PATCH /posts/{id})", () => {
  it.effect("a key edits its own scheduled post: the post changes, its jobs stay, nothing reaches the network", () =>
    Effect.gen(function* () {
      const f = yield* setUp(2)
      const [a, b] = f.accountIds as [string, string]
      const post = yield* create(f.agent, { accountIds: [a], content: "first draft", scheduledFor: at(2 * HOUR) })
      const edited = yield* edit(f.agent, post.id, {
        content: "second draft",
        firstComment: "a link",
        accountIds: [a, b]
      })
      assert.strictEqual(edited.post.status, "scheduled")
      assert.strictEqual(edited.post.content, "second draft")
      assert.strictEqual(edited.post.firstComment, "a link")
      assert.deepStrictEqual(
        edited.post.targets.map((t) => [t.accountId, t.status, t.firstComment?.status]),
        [
          [a, "scheduled", "pending"],
          [b, "scheduled", "pending"]
        ]
      )
      // The time is the post's own; the jobs follow the targets.
      assert.strictEqual(edited.post.scheduledFor, at(2 * HOUR))
      assert.deepStrictEqual([...(yield* jobsOf(post.id))].sort(), [
        [a, 2 * HOUR],
        [b, 2 * HOUR]
      ])
      assert.deepStrictEqual((yield* ScriptedNetwork).calls(), [])
      const events = yield* feed(f.agent, post.id, "post.updated")
      assert.strictEqual(events.length, 1)
      assert.deepStrictEqual(events[0]!.data.changes, [
        { accountId: a, platform: "sandbox", change: "changed", fields: ["content", "firstComment"] },
        { accountId: b, platform: "sandbox", change: "added", fields: [] }
      ])
      // What goes out at the time is the edited post.
      yield* TestClock.setTime(2 * HOUR)
      yield* publishDueTargets(testOptions, 10)
      const sent = (yield* ScriptedNetwork).published()
      assert.deepStrictEqual(
        sent.map((p) => [p.accountId, p.content]),
        [
          [a, "second draft"],
          [b, "second draft"]
        ]
      )
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a target removed takes its job with it; fields left out are kept, null clears", () =>
    Effect.gen(function* () {
      const f = yield* setUp(2)
      const [a, b] = f.accountIds as [string, string]
      const post = yield* create(f.agent, {
        accountIds: [a, b],
        content: "both",
        firstComment: "comment",
        thread: ["reply"],
        scheduledFor: at(HOUR)
      })
      const edited = yield* edit(f.agent, post.id, { accountIds: [b], firstComment: null })
      assert.deepStrictEqual(
        edited.post.targets.map((t) => t.accountId),
        [b]
      )
      assert.strictEqual(edited.post.firstComment, null)
      assert.deepStrictEqual(edited.post.thread, ["reply"])
      assert.strictEqual(edited.post.content, "both")
      assert.deepStrictEqual(yield* jobsOf(post.id), [[b, HOUR]])
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a queued post's slot follows its targets; in a paused queue an edit enqueues nothing", () =>
    Effect.gen(function* () {
      const f = yield* setUp(2)
      const [a, b] = f.accountIds as [string, string]
      const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const
      const put = yield* putSchedules(f.person, {
        schedules: [{ accountIds: [a, b], slots: days.map((day) => ({ day, time: "09:00" })) }]
      })
      const scheduleId = put.schedules[0]!.id
      const queued = yield* create(f.agent, { accountIds: [a], content: "queued", queue: true })
      yield* setQueuePaused(f.person, scheduleId, true)
      assert.deepStrictEqual(yield* jobsOf(queued.id), [])
      yield* edit(f.agent, queued.id, { accountIds: [a, b] })
      // Paused: still no jobs, and the post holds its slot on both accounts now.
      assert.deepStrictEqual(yield* jobsOf(queued.id), [])
      const queue = yield* listQueue(f.agent, scheduleId, {})
      assert.deepStrictEqual(
        queue.posts.map((p) => p.postId),
        [queued.id]
      )
      const entries = yield* (yield* ScheduleRepo).entries(f.agent.workspaceId, [a, b], 0)
      assert.deepStrictEqual(entries.map((e) => e.accountId).sort(), [a, b].sort())
      yield* setQueuePaused(f.person, scheduleId, false)
      assert.deepStrictEqual((yield* jobsOf(queued.id)).map(([account]) => account).sort(), [a, b].sort())
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a key edits only its own posts; a person edits any", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const persons = yield* create(f.person, { accountIds: [a], content: "the owner's", scheduledFor: at(HOUR) })
      const others = yield* create(f.asksFirst, { accountIds: [a], content: "the other key's" })
      for (const id of [persons.id, others.id]) {
        const refused = yield* Effect.flip(edit(f.agent, id, { content: "mine now" }))
        assert.strictEqual(refused.code, "edit_not_own_post")
      }
      const byPerson = yield* edit(f.person, others.id, { content: "tidied by the owner" })
      assert.strictEqual(byPerson.post.content, "tidied by the owner")
      // A person's edit is not an approval: the post still waits.
      assert.strictEqual(byPerson.post.status, "needs_approval")
      const missing = yield* Effect.flip(edit(f.agent, "post_01JZZZZZZZZZZZZZZZZZZZZZZZ", { content: "x" }))
      assert.strictEqual(missing.code, "post_not_found")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a key's edit of an approved post sends it back for approval; a person's keeps it approved", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const post = yield* create(f.asksFirst, { accountIds: [a], content: "please approve", scheduledFor: at(HOUR) })
      assert.strictEqual(post.status, "needs_approval")
      yield* approvePost(f.person, post.id)
      assert.deepStrictEqual(yield* jobsOf(post.id), [[a, HOUR]])

      const byPerson = yield* edit(f.person, post.id, { content: "approved, with a typo fixed" })
      assert.strictEqual(byPerson.post.status, "scheduled")
      assert.deepStrictEqual(yield* jobsOf(post.id), [[a, HOUR]])

      const byKey = yield* edit(f.asksFirst, post.id, { content: "something the person never saw" })
      assert.strictEqual(byKey.post.status, "needs_approval")
      assert.deepStrictEqual(yield* jobsOf(post.id), [])
      const types = yield* eventTypesOf(f.person, post.id)
      assert.deepStrictEqual(types.slice(-3), ["post.updated", "post.updated", "post.needs_approval"])
      // Nothing goes out at the time: it waits for the person again.
      yield* TestClock.setTime(HOUR)
      assert.strictEqual(yield* publishDueTargets(testOptions, 10), 0)
      assert.strictEqual((yield* storedPost(f.person, post.id)).status, "needs_approval")
      assert.deepStrictEqual((yield* ScriptedNetwork).published(), [])

      // A key that never needed approval keeps its own scheduled post scheduled.
      const own = yield* create(f.agent, { accountIds: [a], content: "no approval needed", scheduledFor: at(3 * HOUR) })
      const ownEdit = yield* edit(f.agent, own.id, { content: "still none needed" })
      assert.strictEqual(ownEdit.post.status, "scheduled")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("a post in flight or out answers 409 post_not_editable", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      const now = yield* create(f.agent, { accountIds: [a], content: "right now" })
      assert.strictEqual(now.status, "publishing")
      const inFlight = yield* Effect.flip(edit(f.agent, now.id, { content: "too late" }))
      assert.strictEqual(inFlight.code, "post_not_editable")
      assert.deepStrictEqual(inFlight.details, { postId: now.id, status: "publishing" })
      yield* publishDueTargets(testOptions, 10)
      assert.strictEqual((yield* storedPost(f.agent, now.id)).status, "published")
      const out = yield* Effect.flip(edit(f.person, now.id, { content: "too late" }))
      assert.strictEqual(out.code, "post_not_editable")
      assert.strictEqual((yield* storedPost(f.agent, now.id)).content, "right now")
    }).pipe(Effect.provide(pipelineLayer()))
  )

  it.effect("each target is checked by its network's rules; the dry run says what would change, per target", () =>
    Effect.gen(function* () {
      const f = yield* setUp(1)
      const [a] = f.accountIds as [string]
      yield* addAccount(f.agent, "acc_x", "x")
      yield* addAccount(f.agent, "acc_ig", "instagram")
      const post = yield* create(f.agent, { accountIds: [a, "acc_x"], content: "short", scheduledFor: at(HOUR) })
      // X takes 280 characters: an edit to 300 is refused as a create would be, naming X's target.
      const long = yield* Effect.flip(edit(f.agent, post.id, { content: "w".repeat(300) }))
      assert.strictEqual(long.code, "validation_failed")
      assert.deepStrictEqual((long.details as { platform: string }).platform, "x")
      // Instagram needs media: adding it without any is refused.
      const ig = yield* Effect.flip(edit(f.agent, post.id, { accountIds: [a, "acc_x", "acc_ig"] }))
      assert.strictEqual(ig.code, "media_required")
      // Over X's limit is fine once X gets its own text.
      const dry = yield* dryEdit(f.agent, post.id, {
        content: "w".repeat(300),
        overrides: { x: { content: "short for X" } }
      })
      assert.strictEqual(dry.valid, true)
      assert.strictEqual(dry.wouldPost.status, "scheduled")
      assert.deepStrictEqual(dry.changes, [
        { accountId: a, platform: "sandbox", change: "changed", fields: ["content"] },
        { accountId: "acc_x", platform: "x", change: "changed", fields: ["content"] }
      ])
      // Fields alike on a network show as unchanged there.
      const same = yield* dryEdit(f.agent, post.id, { overrides: { x: { content: "short" } } })
      assert.ok(same.changes.every((c) => c.change === "unchanged"))
      assert.deepStrictEqual(
        dry.targets.map((t) => [t.accountId, t.content.length]),
        [
          [a, 300],
          ["acc_x", 11]
        ]
      )
      // A dry run stores nothing.
      assert.strictEqual((yield* storedPost(f.agent, post.id)).content, "short")
      assert.deepStrictEqual(yield* eventTypesOf(f.agent, post.id), ["post.created"])
    }).pipe(Effect.provide(pipelineLayer(["sandbox", "x", "instagram"])))
  )
})
