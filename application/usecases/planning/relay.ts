import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type { QueueMove } from "../../../domain/contract/planning.ts"
import type { Post } from "../../../domain/post.ts"
import { normalizeSlots, type Schedule } from "../../../domain/schedule.ts"
import { formatUtc } from "../../../domain/time.ts"
import { AccountRepo } from "../../ports/AccountRepo.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { holdOrRelease, layQueue, type MoveReason, movePost, type QueuedPost, queuedPosts } from "./moves.ts"

const ALL = 100_000

/** What a schedule is made of: a change to any of it lays its queue again. */
const definitionOf = (s: Pick<Schedule, "accountIds" | "timeZone" | "slots">) =>
  JSON.stringify([[...s.accountIds].sort(), s.timeZone, normalizeSlots(s.slots)])

/**
 * Makes the schedules `next` (ids kept), lays the queues that changed again, and answers what moved.
 * Runs under the queue's lock in the caller's transaction.
 */
export const relayQueues = Effect.fnUntraced(function* (
  workspaceId: string,
  before: ReadonlyArray<Schedule>,
  next: ReadonlyArray<Schedule>,
  at: number,
  by: Actor["kind"]
) {
  const repo = yield* ScheduleRepo
  const accounts = yield* (yield* AccountRepo).listByWorkspace(workspaceId)
  // The queued posts of every schedule that changes or goes, read before the change.
  const queuedOf = new Map<string, ReadonlyArray<QueuedPost>>()
  for (const old of before) {
    const now = next.find((s) => s.id === old.id)
    if (
      now !== undefined &&
      definitionOf(now) === definitionOf(old) &&
      (now.pausedAt === null) === (old.pausedAt === null)
    )
      continue
    // A queue resuming lays again the posts whose slots passed while it was paused, too.
    const from = now !== undefined && old.pausedAt !== null && now.pausedAt === null ? old.pausedAt : at
    queuedOf.set(old.id, queuedPosts(yield* repo.scheduleEntries(workspaceId, old.id, from, ALL)))
  }
  yield* repo.replace(workspaceId, next)
  const moved: Array<QueueMove> = []
  const released: Array<QueueMove> = []
  const release = (posts: ReadonlyArray<QueuedPost>) =>
    Effect.gen(function* () {
      yield* repo.release(
        workspaceId,
        posts.map((p) => p.postId)
      )
      for (const p of posts)
        released.push({ postId: p.postId, from: formatUtc(p.slotAt), to: formatUtc(p.slotAt), local: null })
    })
  for (const old of before) {
    const posts = queuedOf.get(old.id)
    if (posts === undefined) continue
    const schedule = next.find((s) => s.id === old.id)
    if (schedule === undefined) {
      yield* release(posts) // its entries went with it; the posts keep their times
      continue
    }
    const found = yield* (yield* PostRepo).findMany(posts.map((p) => ({ workspaceId, id: p.postId })))
    const byId = new Map(found.map((p) => [p.id, p]))
    const standing = (q: QueuedPost) => {
      const post = byId.get(q.postId)
      return (
        post !== undefined &&
        post.deletedAt === null &&
        post.scheduledFor === q.slotAt &&
        (post.status === "scheduled" || post.status === "needs_approval")
      )
    }
    const stays = posts.filter((p) => standing(p) && p.accountIds.every((id) => schedule.accountIds.includes(id)))
    yield* release(posts.filter((p) => standing(p) && !stays.includes(p)))
    const resumed = old.pausedAt !== null && schedule.pausedAt === null
    const pauseChanged = (old.pausedAt === null) !== (schedule.pausedAt === null)
    const relay = definitionOf(schedule) !== definitionOf(old) || resumed
    const reason: MoveReason = definitionOf(schedule) !== definitionOf(old) ? "slots_changed" : "queue_resumed"
    const slots = relay ? yield* layQueue(schedule, stays, accounts, at, at) : new Map<string, number | null>()
    const placed: Array<QueuedPost> = []
    for (const q of stays) {
      const to = relay ? (slots.get(q.postId) ?? null) : q.slotAt
      if (to === null) {
        yield* release([q]) // no slot left within a year: it keeps its time, out of the queue
        continue
      }
      const move = yield* movePost(schedule, q, to, reason, at, by)
      if (Option.isSome(move)) moved.push(move.value)
      // Unmoved posts of a queue that paused or resumed: their jobs held back or due again.
      else if (pauseChanged) yield* holdOrRelease(schedule, byId.get(q.postId) as Post)
      placed.push({ ...q, slotAt: to })
    }
    yield* repo.place(
      placed.flatMap((q) =>
        q.accountIds.map((accountId) => ({
          workspaceId,
          scheduleId: schedule.id,
          postId: q.postId,
          accountId,
          slotAt: q.slotAt
        }))
      )
    )
  }
  return { moved, released }
})
