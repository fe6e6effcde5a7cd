import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type { UpdatePostBody } from "../../../domain/contract/postRequest.ts"
import { editChanges, editedBody, editedPost, statusAfterEdit } from "../../../domain/edit.ts"
import { fail } from "../../../domain/errors.ts"
import { canEdit, type Post } from "../../../domain/post.ts"
import { checkCreatePost } from "../../../domain/postRequest.ts"
import { formatUtc, monthOf } from "../../../domain/time.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { JobQueue } from "../../ports/JobQueue.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { entriesAt } from "../planning/placement.ts"
import { cachedWorkspace } from "../auth.ts"
import { fromResult, loadPost, now, requireOwnPost } from "../common.ts"
import { tellOwnerPostWaits } from "../inboxApproval.ts"
import { emit, postEvent } from "../webhooks/events.ts"
import { onLockedPost } from "./actions.ts"
import { checkAgainstWorkspace } from "./create.ts"
import { dryRunResult } from "./dryRun.ts"
import { publishJobsFor } from "./jobs.ts"
import { postView } from "./view.ts"

/** The schedule whose posting queue holds the post, if one does (a paused one holds the post's jobs back). */
const queueOf = Effect.fnUntraced(function* (post: Post) {
  if (post.scheduledFor === null) return undefined
  const repo = yield* ScheduleRepo
  const entries = yield* repo.entries(
    post.workspaceId,
    post.targets.map((t) => t.accountId),
    post.scheduledFor
  )
  const entry = entries.find((e) => e.postId === post.id)
  return entry === undefined ? undefined : (yield* repo.list(post.workspaceId)).find((s) => s.id === entry.scheduleId)
})

/** Refuses a post that is no longer waiting or scheduled: in flight or out, an edit would not reach it. */
const requireEditable = (post: Post) =>
  canEdit(post)
    ? Effect.void
    : Effect.fail(
        fail("post_not_editable", { postId: post.id, status: post.status }, `A ${post.status} post cannot be edited.`)
      )

/**
 * The edit checked as a create of the post it makes (the create's rules, each target by its network),
 * and that post. Nothing reaches a network: a network sees the post only when it is published.
 */
const checkEdit = Effect.fnUntraced(function* (actor: Actor, post: Post, body: UpdatePostBody, at: number) {
  yield* requireOwnPost(actor, post, "edit_not_own_post")
  yield* requireEditable(post)
  const request = yield* fromResult(checkCreatePost(editedBody(post, body, at)))
  const checked = yield* checkAgainstWorkspace(actor.workspaceId, request, at)
  const status = statusAfterEdit(post, actor)
  const after = editedPost(post, request, checked, status, at)
  return { request, checked, status, after, changes: editChanges(post, after) }
})

/** The edit's dry run: the create's dry run of the edited post, with what would change per target. Nothing is stored. */
const dryRunEdit = Effect.fnUntraced(function* (actor: Actor, id: string, body: UpdatePostBody) {
  const post = yield* loadPost(actor, id)
  const at = yield* now
  const { request, checked, status, changes } = yield* checkEdit(actor, post, body, at)
  const workspace = Option.getOrThrow(yield* cachedWorkspace(actor.workspaceId))
  const result = yield* dryRunResult({
    actor,
    request,
    checked,
    workspace,
    requireApproval: status === "needs_approval",
    monthlyLimit: planLimits[workspace.plan].postsPerMonth,
    month: monthOf(at),
    at,
    counts: false
  })
  const scheduledFor = post.scheduledFor === null ? null : formatUtc(post.scheduledFor)
  return { ...result, wouldPost: { ...result.wouldPost, status, scheduledFor }, changes }
})

/**
 * PATCH /posts/{id}: changes a post that has not gone out, checked by the create's rules. A key edits
 * only its own posts; a key's edit of an approved post sends it back for approval (with its event and
 * the owner's e-mail); a person's edit keeps it approved. Done under the post's lock, with its jobs.
 */
export const updatePost = Effect.fn("updatePost")(function* (actor: Actor, id: string, body: UpdatePostBody) {
  if (body.dryRun === true) return yield* dryRunEdit(actor, id, body)
  const edited = yield* onLockedPost(actor, id, (post) =>
    Effect.gen(function* () {
      const at = yield* now
      const { after, changes } = yield* checkEdit(actor, post, body, at)
      yield* (yield* PostRepo).update(after)
      const jobs = yield* JobQueue
      const accountsChanged = changes.some((c) => c.change === "added" || c.change === "removed")
      // A queued post's slot is held per account: the entries follow the targets.
      const schedule = accountsChanged ? yield* queueOf(post) : undefined
      if (schedule !== undefined && post.scheduledFor !== null)
        yield* (yield* ScheduleRepo).place(
          entriesAt(
            schedule,
            post.id,
            after.targets.map((t) => t.accountId),
            post.scheduledFor
          )
        )
      // Jobs are per target: they follow the targets (none while its queue is paused), and leave with an approval that no longer holds.
      if (post.status === "scheduled" && (after.status !== "scheduled" || accountsChanged)) {
        yield* jobs.removeForPost(post.id)
        if (after.status === "scheduled" && (schedule === undefined || schedule.pausedAt === null))
          yield* jobs.enqueue(yield* publishJobsFor(after, post.scheduledFor ?? at))
      }
      const view = postView(after)
      const sentBack = post.status === "scheduled" && after.status === "needs_approval"
      yield* emit([
        yield* postEvent("post.updated", after, at, { changes }, view),
        ...(sentBack ? [yield* postEvent("post.needs_approval", after, at, {}, view)] : [])
      ])
      return { post: after, view, sentBack }
    })
  )
  // As for a new post waiting: the owner hears of it, on its own fiber.
  if (edited.sentBack)
    yield* Effect.forkDetach(
      tellOwnerPostWaits(edited.post).pipe(
        Effect.catchCause((cause) => Effect.logWarning("approval e-mail not sent", cause))
      )
    )
  return { post: edited.view }
})
