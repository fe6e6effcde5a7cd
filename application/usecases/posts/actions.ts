import { Effect, Result } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type { BulkRequest, RescheduleRequest } from "../../../domain/contract/post.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import { approvalVersion } from "../../../domain/approval.ts"
import {
  backToApproval,
  canApprove,
  canCancel,
  canReject,
  canReschedule,
  canRetry,
  type Post,
  sendsBackForApproval,
  withTargets
} from "../../../domain/post.ts"
import { isWellFormedId } from "../../../domain/ids.ts"
import { checkSchedule } from "../../../domain/postRules.ts"
import { formatUtc } from "../../../domain/time.ts"
import { type Job, JobQueue } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { Store } from "../../ports/Store.ts"
import { fromResult, loadPost, now, requireClaimed, requireOwnPost, requirePerson } from "../common.ts"
import { firstCommentJob, publishJobsFor } from "./jobs.ts"
import { postView } from "./view.ts"
import { emit, postEvent } from "../webhooks/events.ts"
import { tellOwnerPostWaits } from "../inboxApproval.ts"

const conflict = (post: Post, action: string) =>
  Effect.fail(
    fail(
      "post_state_conflict",
      { postId: post.id, status: post.status, action },
      `A ${post.status} post cannot be ${action}.`
    )
  )

/**
 * Runs an action on the post as it is now: in one transaction, under the post's lock (the one the
 * publishing worker takes), re-read, checked and written together with its queue change. So a
 * cancel racing the due time either wins (nothing fires) or sees the post already publishing.
 */
export const onLockedPost = <A, R>(
  actor: Actor,
  id: string,
  action: (post: Post) => Effect.Effect<A, HeraldError, R>
) =>
  !isWellFormedId(id)
    ? Effect.fail(fail("post_not_found", { postId: id }))
    : Effect.flatMap(Store, (store) =>
        store.transaction(
          Effect.gen(function* () {
            yield* (yield* JobQueue).lockPost(id)
            return yield* action(yield* loadPost(actor, id))
          })
        )
      )

/**
 * Approve: due now (or overdue) publishes at once, otherwise it is scheduled. With `seenVersion`
 * (what the approval page or e-mail showed), a post that changed since is refused: the person
 * approves what they saw, never a later edit.
 */
export const approvePost = Effect.fn("approvePost")(function* (actor: Actor, id: string, seenVersion?: string) {
  yield* requirePerson(actor)
  yield* requireClaimed(actor.workspaceId)
  return yield* onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      if (!canApprove(post)) return yield* conflict(post, "approved")
      const version = approvalVersion(post)
      if (seenVersion !== undefined && seenVersion !== version)
        return yield* Effect.fail(fail("post_changed", { postId: post.id, seenVersion, version, post: postView(post) }))
      const at = yield* now
      const due = post.scheduledFor !== null && post.scheduledFor > at ? post.scheduledFor : at
      const status = due > at ? "scheduled" : "publishing"
      const approved = withTargets(
        post,
        post.targets.map((t) => ({ ...t, status })),
        at
      )
      yield* (yield* PostRepo).update(approved)
      yield* (yield* JobQueue).enqueue(yield* publishJobsFor(approved, due))
      yield* emit([yield* postEvent("post.approved", approved, at)])
      return { post: postView(approved) }
    })
  )
})

// The event shows the post as it was when removed (the API no longer shows removed posts).
const remove =
  (
    reason: "cancelled" | "rejected",
    code: "cancel_not_own_post" | "reject_not_own_post",
    allowed: (post: Post) => boolean
  ) =>
  (actor: Actor, id: string, note: string | null = null) =>
    onLockedPost(actor, id, (post) =>
      Effect.gen(function* () {
        yield* requireOwnPost(actor, post, code)
        if (!allowed(post)) return yield* conflict(post, reason)
        const at = yield* now
        yield* (yield* JobQueue).removeForPost(post.id)
        yield* (yield* PostRepo).update({ ...post, deletedAt: at, deletedReason: reason, updatedAt: at })
        // The reason the person gave is read by the agent in the post.rejected event (GET /events, webhooks).
        yield* emit([
          yield* postEvent(
            reason === "cancelled" ? "post.cancelled" : "post.rejected",
            { ...post, updatedAt: at },
            at,
            note === null ? {} : { reason: note }
          )
        ])
        return { id: post.id, [reason]: true }
      })
    )

const removeRejected = remove("rejected", "reject_not_own_post", canReject)
export const REJECT_REASON_MAX = 1000

/** Reject, with an optional reason (trimmed, at most 1000 characters) the agent reads in the post.rejected event. */
export const rejectPost = Effect.fn("rejectPost")(function* (actor: Actor, id: string, reason?: string) {
  if (reason !== undefined && reason.length > REJECT_REASON_MAX)
    return yield* Effect.fail(
      invalidFields(["reason"], `reason is an optional text of at most ${REJECT_REASON_MAX} characters.`)
    )
  const note = reason !== undefined && reason.trim() !== "" ? reason.trim() : null
  return yield* removeRejected(actor, id, note)
})
export const cancelPost = Effect.fn("cancelPost")(remove("cancelled", "cancel_not_own_post", canCancel))

/**
 * Moves a post to the decoded request's time (contract/post.ts RescheduleRequest); the time's rules are
 * checkSchedule's. A key moving a post a person approved sends it back for approval: the approval
 * covered the time too (README "Security"); the owner is told as for a new waiting post.
 */
export const reschedulePost = Effect.fn("reschedulePost")(function* (
  actor: Actor,
  id: string,
  body: typeof RescheduleRequest.Type
) {
  const { answer, sentBack } = yield* onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      yield* requireOwnPost(actor, post, "reschedule_not_own_post")
      if (!canReschedule(post)) return yield* conflict(post, "rescheduled")
      const at = yield* now
      const scheduledFor = (yield* fromResult(checkSchedule(body.scheduledFor, at)))!
      const sendBack = sendsBackForApproval(actor.kind, post) && scheduledFor !== post.scheduledFor
      const timed: Post = { ...post, scheduledFor, updatedAt: at }
      const moved = sendBack ? backToApproval(timed, at) : timed
      yield* (yield* PostRepo).update(moved)
      if (sendBack) yield* (yield* JobQueue).removeForPost(post.id)
      else if (post.status === "scheduled") yield* (yield* JobQueue).rescheduleForPost(post.id, scheduledFor)
      const view = postView(moved)
      yield* emit([
        yield* postEvent(
          "post.rescheduled",
          moved,
          at,
          { previousScheduledFor: post.scheduledFor === null ? null : formatUtc(post.scheduledFor) },
          view
        ),
        ...(sendBack ? [yield* postEvent("post.needs_approval", moved, at, {}, view)] : [])
      ])
      return { answer: { post: view }, sentBack: sendBack ? moved : null }
    })
  )
  if (sentBack !== null)
    yield* Effect.forkDetach(
      tellOwnerPostWaits(sentBack).pipe(
        Effect.catchCause((cause) => Effect.logWarning("approval e-mail not sent", cause))
      )
    )
  return answer
})

/** A person sends a failed post again: failed targets go back to the queue. */
export const retryPost = Effect.fn("retryPost")(function* (actor: Actor, id: string) {
  return yield* onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      yield* requireOwnPost(actor, post, "retry_not_own_post")
      yield* requirePerson(actor)
      if (!canRetry(post)) return yield* conflict(post, "retried")
      const at = yield* now
      const retried = withTargets(
        post,
        post.targets.map((t) => (t.status === "failed" ? { ...t, status: "publishing" as const, error: null } : t)),
        at
      )
      const failedOnly = { ...retried, targets: retried.targets.filter((_t, i) => post.targets[i].status === "failed") }
      yield* (yield* PostRepo).update(retried)
      yield* (yield* JobQueue).enqueue(yield* publishJobsFor(failedOnly, at))
      return { post: postView(retried) }
    })
  )
})

/** A person retries the failed first comments of a post (all targets, or one account). */
export const retryFirstComment = Effect.fn("retryFirstComment")(function* (
  actor: Actor,
  id: string,
  accountId: string | null
) {
  yield* requirePerson(actor)
  return yield* onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      const failed = post.targets.filter(
        (t) => t.firstComment?.status === "failed" && (accountId === null || t.accountId === accountId)
      )
      if (failed.length === 0) return yield* Effect.fail(fail("first_comment_not_failed", { postId: post.id }))
      const at = yield* now
      const updated = withTargets(
        post,
        post.targets.map((t) =>
          failed.includes(t) ? { ...t, firstComment: { status: "pending" as const, externalId: null, error: null } } : t
        ),
        at
      )
      const jobs: Array<Job> = []
      for (const t of failed) jobs.push(yield* firstCommentJob(post, t.accountId, at))
      yield* (yield* PostRepo).update(updated)
      yield* (yield* JobQueue).enqueue(jobs)
      return { post: postView(updated) }
    })
  )
})

type BulkBody = typeof BulkRequest.Type

const bulk = <A, R>(action: (actor: Actor, id: string, body: BulkBody) => Effect.Effect<A, HeraldError, R>) =>
  Effect.fnUntraced(function* (actor: Actor, body: BulkBody) {
    yield* requirePerson(actor)
    const results = []
    for (const postId of body.postIds) {
      const outcome = yield* Effect.result(action(actor, postId, body))
      results.push(
        Result.isSuccess(outcome)
          ? { id: postId, ok: true, error: null }
          : { id: postId, ok: false, error: { code: outcome.failure.code, details: outcome.failure.details ?? null } }
      )
    }
    return { results }
  })

/** Decoded by the endpoint (contract/post.ts BulkRequest): 1-100 ids, `versions` the version each post was seen at. */
export const bulkApprove = bulk((actor, id, body) => approvePost(actor, id, body.versions?.[id]))
export const bulkReject = bulk((actor, id, body) => rejectPost(actor, id, body.reason))
