import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import type { QueueMove } from "../../../domain/contract/planning.ts"
import { backToApproval, type Post, sendsBackForApproval } from "../../../domain/post.ts"
import {
  firstFreeSlot,
  QueueBook,
  type QueueEntry,
  type Schedule,
  SLOT_LEAD_MS,
  dailyCapOf
} from "../../../domain/schedule.ts"
import { DAY_MS, formatUtc, oneYearAfter } from "../../../domain/time.ts"
import { localView } from "../../../domain/zonedTime.ts"
import { JobQueue } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { publishJobsFor } from "../posts/jobs.ts"
import { emit, postEvent } from "../webhooks/events.ts"
import { plannedView } from "./placement.ts"

// Moving queued posts: laying a queue again after its slots change, it resumes or is reordered.
// Each post keeps its place in the order and takes the first slot free for all its accounts.

/** A queued post as its entries show it: its accounts and its slot. */
export interface QueuedPost {
  readonly postId: string
  readonly accountIds: ReadonlyArray<string>
  readonly slotAt: number
}

/** Entries grouped by post, in slot order (ties by post id). */
export const queuedPosts = (entries: ReadonlyArray<QueueEntry>): ReadonlyArray<QueuedPost> => {
  const byPost = new Map<string, { postId: string; accountIds: Array<string>; slotAt: number }>()
  for (const e of entries) {
    const known = byPost.get(e.postId)
    if (known) known.accountIds.push(e.accountId)
    else byPost.set(e.postId, { postId: e.postId, accountIds: [e.accountId], slotAt: e.slotAt })
  }
  return [...byPost.values()].sort((a, b) => a.slotAt - b.slotAt || (a.postId < b.postId ? -1 : 1))
}

export type MoveReason = "queue_reordered" | "slots_changed" | "queue_resumed"

/**
 * Lays posts on a schedule in the order given, from `from`: each takes the first slot free for all
 * its accounts, among the entries of posts not being laid. Answers each post's new slot (null: no slot
 * left within a year).
 */
export const layQueue = Effect.fnUntraced(function* (
  schedule: Schedule,
  posts: ReadonlyArray<QueuedPost>,
  accounts: ReadonlyArray<Account>,
  from: number,
  now: number
) {
  const moving = new Set(posts.map((p) => p.postId))
  const held = yield* (yield* ScheduleRepo).entries(schedule.workspaceId, schedule.accountIds, now - DAY_MS)
  const book = new QueueBook(held.filter((e) => !moving.has(e.postId)))
  const platformOf = new Map(accounts.map((a) => [a.id, a.platform]))
  const start = Math.max(from, now + SLOT_LEAD_MS)
  const slots = new Map<string, number | null>()
  for (const post of posts) {
    const targets = post.accountIds.map((accountId) => {
      const platform = platformOf.get(accountId)
      return { accountId, dailyCap: platform === undefined ? null : dailyCapOf(platform) }
    })
    const at = firstFreeSlot(schedule, targets, book, start, oneYearAfter(now))
    if (at !== null) for (const t of targets) book.add(t.accountId, at)
    slots.set(post.postId, at)
  }
  return slots
})

/**
 * Moves one queued post to `to` under its lock, as a reschedule does: its jobs follow (none while the
 * queue is paused) and post.rescheduled says why. A post that changed meanwhile (published, moved by
 * someone, removed) is left alone, as is one already there: None.
 */
export const movePost = Effect.fnUntraced(function* (
  schedule: Schedule,
  queued: QueuedPost,
  to: number,
  reason: MoveReason,
  at: number,
  by: "key" | "person"
) {
  yield* (yield* JobQueue).lockPost(queued.postId)
  const found = yield* (yield* PostRepo).findById(schedule.workspaceId, queued.postId)
  const post = Option.getOrUndefined(found)
  if (
    post === undefined ||
    post.deletedAt !== null ||
    post.scheduledFor !== queued.slotAt ||
    (post.status !== "scheduled" && post.status !== "needs_approval")
  )
    return Option.none<QueueMove>()
  if (to === queued.slotAt) return Option.none<QueueMove>()
  // A key moving a post a person approved sends it back for approval, as a reschedule does.
  const sendBack = sendsBackForApproval(by, post)
  const timed: Post = { ...post, scheduledFor: to, updatedAt: at }
  const moved = sendBack ? backToApproval(timed, at) : timed
  yield* (yield* PostRepo).update(moved)
  if (sendBack) yield* (yield* JobQueue).removeForPost(post.id)
  else yield* holdOrRelease(schedule, moved)
  yield* emit([
    yield* postEvent("post.rescheduled", moved, at, {
      previousScheduledFor: formatUtc(queued.slotAt),
      reason,
      planned: plannedView(to, schedule.timeZone, schedule.id)
    }),
    ...(sendBack ? [yield* postEvent("post.needs_approval", moved, at)] : [])
  ])
  return Option.some<QueueMove>({
    postId: post.id,
    from: formatUtc(queued.slotAt),
    to: formatUtc(to),
    local: localView(to, schedule.timeZone)
  })
})

/** A scheduled post's jobs as its queue wants them: none while paused, else due at its slot. */
export const holdOrRelease = Effect.fnUntraced(function* (schedule: Schedule, post: Post) {
  if (post.status !== "scheduled" || post.scheduledFor === null) return
  const jobs = yield* JobQueue
  yield* jobs.removeForPost(post.id)
  if (schedule.pausedAt === null) yield* jobs.enqueue(yield* publishJobsFor(post, post.scheduledFor))
})
