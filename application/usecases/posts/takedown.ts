import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { creatorOf } from "../../../domain/apiKey.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { HeraldEvent } from "../../../domain/events.ts"
import { platformNames } from "../../../domain/platforms.ts"
import { canTakeDown, type Post, type Target } from "../../../domain/post.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { type Job, JobQueue } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { Publishers } from "../../ports/Publishers.ts"
import { now, requireOwnPost } from "../common.ts"
import { emit, targetEvent } from "../webhooks/events.ts"
import { onLockedPost } from "./actions.ts"
import { postView } from "./view.ts"

/** The targets whose networks cannot remove a post through their API (no `unpublish`). */
const unsupported = Effect.fnUntraced(function* (targets: ReadonlyArray<Target>) {
  const publishers = yield* Publishers
  return targets.filter((t) =>
    Option.match(publishers.get(t.platform), { onNone: () => true, onSome: (p) => p.unpublish === undefined })
  )
})

/**
 * Asks for the take-down of `chosen` targets of a post, under its lock. Nothing is called here: a
 * take-down job per target asks the network, so a crash never leaves a target "deleted" the network did
 * not confirm. Asked again, a take-down under way or done is left as it is (idempotent); an asks-first
 * key's request waits for a person, whose own request for the same target confirms it.
 */
const takeDown = (actor: Actor, id: string, pick: (post: Post) => Effect.Effect<ReadonlyArray<Target>, HeraldError>) =>
  onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      yield* requireOwnPost(actor, post, "takedown_not_own_post")
      const chosen = yield* pick(post)
      const notOut = chosen.filter((t) => !canTakeDown(t))
      if (notOut.length > 0)
        return yield* Effect.fail(
          fail("target_not_published", {
            postId: post.id,
            accountIds: notOut.map((t) => t.accountId),
            statuses: notOut.map((t) => t.status)
          })
        )
      const refused = yield* unsupported(chosen)
      if (refused.length > 0) {
        const names = [...new Set(refused.map((t) => platformNames[t.platform]))]
        return yield* Effect.fail(
          fail(
            "unpublish_unsupported",
            {
              postId: post.id,
              accountIds: refused.map((t) => t.accountId),
              platforms: [...new Set(refused.map((t) => t.platform))]
            },
            `${names.join(" and ")} ${names.length > 1 ? "do" : "does"} not let an app remove a post through its API: remove it in ${names.length > 1 ? "their" : "its"} own app.`
          )
        )
      }
      const at = yield* now
      const waits = actor.kind === "key" && actor.requireApproval
      const requestedBy = creatorOf(actor)
      const crypto = yield* Crypto
      const jobs: Array<Job> = []
      const changed: Array<Target> = []
      const targets: Array<Target> = []
      for (const t of post.targets) {
        const current = t.deletion?.status
        const untouched =
          !chosen.includes(t) ||
          current === "deleted" ||
          current === "deleting" ||
          (current === "awaiting_approval" && waits)
        if (untouched) {
          targets.push(t)
          continue
        }
        const next: Target = {
          ...t,
          deletion: {
            status: waits ? "awaiting_approval" : "deleting",
            requestedBy,
            requestedAt: at,
            deletedAt: null,
            error: null
          }
        }
        targets.push(next)
        changed.push(next)
        if (!waits)
          jobs.push({
            id: yield* crypto.id("job"),
            kind: "takedown",
            workspaceId: post.workspaceId,
            postId: post.id,
            accountId: t.accountId,
            runAt: at,
            attempts: 0
          })
      }
      if (changed.length === 0) return { post: postView(post) }
      const updated: Post = { ...post, targets, updatedAt: at }
      yield* (yield* PostRepo).update(updated)
      if (jobs.length > 0) yield* (yield* JobQueue).enqueue(jobs)
      const events: Array<HeraldEvent> = []
      if (waits) for (const t of changed) events.push(yield* targetEvent("target.deletion_requested", updated, t, at))
      if (events.length > 0) yield* emit(events)
      return { post: postView(updated) }
    })
  )

/** DELETE /posts/{id}/targets/{accountId}: takes one published target down, with its thread and first comment. */
export const takeDownTarget = Effect.fn("takeDownTarget")(function* (actor: Actor, id: string, accountId: string) {
  return yield* takeDown(actor, id, (post) => {
    const target = post.targets.find((t) => t.accountId === accountId)
    return target === undefined
      ? Effect.fail(fail("target_not_found", { postId: post.id, accountId }))
      : Effect.succeed([target])
  })
})

/**
 * DELETE /posts/{id}/targets: takes every target of the post that is on a network down. All or none:
 * when one of their networks cannot, nothing is asked and the answer names it (take the others down one by one).
 */
export const takeDownPost = Effect.fn("takeDownPost")(function* (actor: Actor, id: string) {
  return yield* takeDown(actor, id, (post) => {
    const out = post.targets.filter((t) => t.externalId !== null)
    return out.length === 0
      ? Effect.fail(fail("target_not_published", { postId: post.id, status: post.status }))
      : Effect.succeed(out)
  })
})
