import { Effect } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type { Queue, QueueChanged, QueueMove } from "../../../domain/contract/planning.ts"
import { fail, invalidFields } from "../../../domain/errors.ts"
import { formatUtc } from "../../../domain/time.ts"
import { localView } from "../../../domain/zonedTime.ts"
import { AccountRepo } from "../../ports/AccountRepo.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { Store } from "../../ports/Store.ts"
import { now, requireOwnPost } from "../common.ts"
import { emit, newEvent } from "../webhooks/events.ts"
import { layQueue, movePost, queuedPosts } from "./moves.ts"
import { findSchedule, requireQueueManager, scheduleView } from "./schedules.ts"

// A schedule's queue: its posts from now on in slot order, and putting them in another order.

const ALL = 100_000
export const MAX_REORDER = 1000

/** GET /schedules/{id}/queue: queued posts from now on, in slot order; `cursor` is the last post id of a page. */
export const listQueue = Effect.fn("listQueue")(function* (
  actor: Actor,
  scheduleId: string,
  query: { readonly limit?: string | undefined; readonly cursor?: string | undefined }
) {
  const limit = query.limit === undefined ? 50 : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    return yield* Effect.fail(invalidFields(["limit"], "limit is 1-500."))
  const at = yield* now
  const schedule = yield* findSchedule(actor.workspaceId, scheduleId)
  const all = queuedPosts(yield* (yield* ScheduleRepo).scheduleEntries(actor.workspaceId, scheduleId, at, ALL))
  const start = query.cursor === undefined ? 0 : all.findIndex((q) => q.postId === query.cursor) + 1
  if (query.cursor !== undefined && start === 0)
    return yield* Effect.fail(invalidFields(["cursor"], "cursor is a post id from the previous page's nextCursor."))
  const page = all.slice(start, start + limit)
  const posts = yield* (yield* PostRepo).findMany(page.map((q) => ({ workspaceId: actor.workspaceId, id: q.postId })))
  const statusOf = new Map(posts.map((p) => [p.id, p.status]))
  return {
    schedule: scheduleView(schedule, at),
    posts: page.map((q) => ({
      postId: q.postId,
      status: statusOf.get(q.postId) ?? "scheduled",
      accountIds: q.accountIds,
      scheduledFor: formatUtc(q.slotAt),
      ...localView(q.slotAt, schedule.timeZone)
    })),
    nextCursor: start + limit < all.length ? (page.at(-1)?.postId ?? null) : null
  } satisfies Queue
})

/**
 * POST /schedules/{id}/queue/reorder: the posts named are laid again in that order from the earliest
 * slot any of them holds, each on the first slot free for all its accounts; other posts keep theirs.
 * A key may reorder only its own posts.
 */
export const reorderQueue = Effect.fn("reorderQueue")(function* (
  actor: Actor,
  scheduleId: string,
  postIds: ReadonlyArray<string>
) {
  yield* requireQueueManager(actor)
  if (postIds.length === 0 || postIds.length > MAX_REORDER || new Set(postIds).size !== postIds.length)
    return yield* Effect.fail(invalidFields(["postIds"], `postIds must be 1-${MAX_REORDER} distinct queued post ids.`))
  const workspaceId = actor.workspaceId
  return yield* (yield* Store).transaction(
    Effect.gen(function* () {
      yield* (yield* ScheduleRepo).lockQueue(workspaceId)
      const at = yield* now
      const schedule = yield* findSchedule(workspaceId, scheduleId)
      const queued = queuedPosts(yield* (yield* ScheduleRepo).scheduleEntries(workspaceId, scheduleId, at, ALL))
      const byId = new Map(queued.map((q) => [q.postId, q]))
      const missing = postIds.filter((id) => !byId.has(id))
      if (missing.length > 0)
        return yield* Effect.fail(
          fail("post_not_found", { postIds: missing }, "These posts are not queued on this schedule from now on.")
        )
      const posts = yield* (yield* PostRepo).findMany(postIds.map((id) => ({ workspaceId, id })))
      for (const post of posts) yield* requireOwnPost(actor, post, "reschedule_not_own_post")
      const order = postIds.map((id) => byId.get(id)!)
      const from = Math.min(...order.map((q) => q.slotAt))
      const accounts = yield* (yield* AccountRepo).listByWorkspace(workspaceId)
      const slots = yield* layQueue(schedule, order, accounts, from, at)
      const moved: Array<QueueMove> = []
      const placed = []
      for (const q of order) {
        const to = slots.get(q.postId) ?? null
        if (to === null) continue // no slot within a year: it stays where it is
        const move = yield* movePost(schedule, q, to, "queue_reordered", at, actor.kind)
        if (move._tag === "Some") moved.push(move.value)
        placed.push(
          ...q.accountIds.map((accountId) => ({ workspaceId, scheduleId, postId: q.postId, accountId, slotAt: to }))
        )
      }
      yield* (yield* ScheduleRepo).place(placed)
      const view = scheduleView(schedule, at)
      yield* emit([
        yield* newEvent("queue.reordered", workspaceId, { kind: "schedule", id: scheduleId }, scheduleId, at, {
          schedule: view,
          moved
        })
      ])
      return { schedule: view, moved } satisfies QueueChanged
    })
  )
})
