import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { creatorOf } from "../../../domain/apiKey.ts"
import { fail } from "../../../domain/errors.ts"
import type { Post, Target } from "../../../domain/post.ts"
import type { CreatePostBody } from "../../../domain/contract/postRequest.ts"
import { checkCreatePost, type CreatePostRequest, networkOptionsOf } from "../../../domain/postRequest.ts"
import { overrideMediaIds } from "../../../domain/overrides.ts"
import { type CheckedPost, checkPost } from "../../../domain/postRules.ts"
import { DAY_MS, monthOf } from "../../../domain/time.ts"
import { planLimits, type Workspace } from "../../../domain/workspace.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { cachedWorkspace } from "../auth.ts"
import { readCache } from "../../readCache.ts"
import { canonicalJson, fromResult, now } from "../common.ts"
import { dryRunResult } from "./dryRun.ts"
import { publishJobsFor } from "./jobs.ts"
import { isLocalTime } from "../../../domain/scheduledFor.ts"
import { ScheduleRepo } from "../../ports/ScheduleRepo.ts"
import { Store } from "../../ports/Store.ts"
import {
  entriesAt,
  planningContext,
  plannedView,
  type QueueSession,
  queueOfTargets,
  queueSession,
  queueTargets,
  zoneOfTargets
} from "../planning/placement.ts"
import { postView } from "./view.ts"
import { PostCreator } from "../../ports/PostCreator.ts"
import { tellOwnerPostWaits } from "../inboxApproval.ts"
import { postEvent, workspaceEvent } from "../webhooks/events.ts"

const IDEMPOTENCY_LIFETIME_MS = DAY_MS

/**
 * The workspace's accounts through the read cache; read again when the cached list lacks a requested
 * account or has one not connected, so an account connected (or reconnected) a moment ago is seen.
 */
const workspaceAccounts = Effect.fnUntraced(function* (workspaceId: string, wanted: ReadonlyArray<string>) {
  const cache = yield* readCache
  const cached = yield* cache.accounts(workspaceId)
  const fresh = wanted.every((id) => cached.some((a) => a.id === id && a.status === "connected"))
  if (fresh) return cached
  yield* cache.forgetAccounts(workspaceId)
  return yield* cache.accounts(workspaceId)
})
const maxIdempotencyKeyLength = 255

/**
 * A request past its own rules, checked against the workspace: its accounts and media read, then every
 * rule of the spec and of each target's network (checkPost). Create and edit both pass here.
 */
export const checkAgainstWorkspace = Effect.fnUntraced(function* (
  workspaceId: string,
  request: CreatePostRequest,
  at: number,
  timeZone?: string
) {
  const accounts = yield* workspaceAccounts(workspaceId, request.accountIds)
  const coverId = request.cover && "mediaId" in request.cover ? [request.cover.mediaId] : []
  const mediaIds = [...new Set([...request.mediaIds, ...overrideMediaIds(request.overrides), ...coverId])]
  const media = mediaIds.length === 0 ? [] : yield* (yield* MediaRepo).findByIds(workspaceId, mediaIds)
  return yield* fromResult(checkPost(request, { now: at, accounts, media, timeZone }))
})

/**
 * POST /posts on a decoded body: check its rules, then either answer a dry run or store the post, its
 * targets, the month's usage and the publish jobs as one atomic write (with the idempotency record, when a key is sent).
 * Untraced, like authenticateKey: the hot path of the API, where Effect.fn's call-site capture cost ~4 µs a create.
 */
export const createPost = Effect.fnUntraced(function* (
  actor: Actor,
  body: CreatePostBody,
  idempotencyKey: string | null,
  /** A batch's queue state (its rows see each other's slots); a single create starts its own. */
  session?: QueueSession
) {
  const request = yield* fromResult(checkCreatePost(body))
  if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > maxIdempotencyKeyLength))
    return yield* Effect.fail(
      fail(
        "validation_failed",
        { fields: ["Idempotency-Key"] },
        `Idempotency-Key must be 1-${maxIdempotencyKeyLength} characters.`
      )
    )
  const at = yield* now
  // A local time or the queue needs the workspace's zones and schedules; a plain create reads nothing more.
  const planning =
    request.queue === true || isLocalTime(request.scheduledFor)
      ? yield* session === undefined ? planningContext(actor.workspaceId) : session.context(actor.workspaceId)
      : null
  const timeZone = planning === null ? undefined : zoneOfTargets(planning, request.accountIds)
  const checked = yield* checkAgainstWorkspace(actor.workspaceId, request, at, timeZone)
  const schedule =
    planning !== null && request.queue === true ? yield* queueOfTargets(planning, request.accountIds) : null
  const plannedZone =
    (request.scheduledFor !== null && isLocalTime(request.scheduledFor) ? request.scheduledFor.timeZone : undefined) ??
    timeZone
  const keyAsksFirst = actor.kind === "key" && actor.requireApproval
  const requireApproval = keyAsksFirst || request.requireApproval === true
  const workspace = Option.getOrThrow(yield* cachedWorkspace(actor.workspaceId))
  const monthlyLimit = planLimits[workspace.plan].postsPerMonth
  const month = monthOf(at)

  if (request.dryRun) {
    const queue = session ?? queueSession()
    const slot = schedule === null ? null : yield* queue.take(schedule, queueTargets(checked.targets), at)
    const result = yield* dryRunResult({
      actor,
      request,
      checked: slot === null ? checked : { ...checked, scheduledFor: slot },
      workspace,
      requireApproval,
      monthlyLimit,
      month,
      at
    })
    const planned =
      schedule !== null && slot !== null
        ? plannedView(slot, schedule.timeZone, schedule.id)
        : checked.scheduledFor !== null && plannedZone !== undefined && isLocalTime(request.scheduledFor)
          ? plannedView(checked.scheduledFor, plannedZone, null)
          : undefined
    return { kind: "dryRun" as const, body: planned === undefined ? result : { ...result, planned } }
  }

  const postId = yield* (yield* Crypto).id("post")
  const stored = {
    actor,
    body,
    request,
    checked,
    requireApproval,
    workspace,
    monthlyLimit,
    month,
    at,
    idempotencyKey,
    postId
  }
  if (schedule !== null) {
    // The slot is read and taken under the queue's lock, in the transaction that stores the post.
    const queue = session ?? queueSession()
    const targets = queueTargets(checked.targets)
    return yield* (yield* Store).transaction(
      Effect.gen(function* () {
        if (!queue.locked) yield* (yield* ScheduleRepo).lockQueue(actor.workspaceId)
        const slot = yield* queue.take(schedule, targets, at)
        const answer = yield* Effect.onError(
          storePost({ ...stored, scheduledFor: slot, enqueue: schedule.pausedAt === null }),
          () => Effect.sync(() => queue.giveBack(schedule, targets, slot))
        )
        if (answer.kind !== "created") {
          queue.giveBack(schedule, targets, slot)
          return answer
        }
        yield* (yield* ScheduleRepo).place(entriesAt(schedule, postId, request.accountIds, slot))
        return { ...answer, body: { ...answer.body, planned: plannedView(slot, schedule.timeZone, schedule.id) } }
      })
    )
  }
  const answer = yield* storePost({ ...stored, scheduledFor: checked.scheduledFor, enqueue: true })
  return answer.kind === "created" &&
    plannedZone !== undefined &&
    checked.scheduledFor !== null &&
    isLocalTime(request.scheduledFor)
    ? { ...answer, body: { ...answer.body, planned: plannedView(checked.scheduledFor, plannedZone, null) } }
    : answer
})

/** A create past its rules, ready to store. */
interface StoreInput {
  readonly actor: Actor
  readonly body: CreatePostBody
  readonly request: CreatePostRequest
  readonly checked: CheckedPost
  readonly requireApproval: boolean
  readonly workspace: Workspace
  readonly monthlyLimit: number | null
  readonly month: string
  readonly at: number
  readonly idempotencyKey: string | null
  readonly postId: string
  /** When it goes out; null: now. */
  readonly scheduledFor: number | null
  /** False leaves its jobs to a paused queue's resume. */
  readonly enqueue: boolean
}

/** Stores the post, its jobs, usage, key claim and events in one atomic write; answers created or replayed. */
const storePost = Effect.fnUntraced(function* (input: StoreInput) {
  const { actor, body, request, checked, requireApproval, workspace, monthlyLimit, month, at, idempotencyKey } = input
  const { postId, scheduledFor, enqueue } = input
  const crypto = yield* Crypto
  const status: Target["status"] = requireApproval
    ? "needs_approval"
    : scheduledFor !== null
      ? "scheduled"
      : "publishing"
  const post: Post = {
    id: postId,
    workspaceId: actor.workspaceId,
    status,
    content: request.content,
    mediaIds: request.mediaIds,
    firstComment: request.firstComment,
    thread: request.thread,
    poll: request.poll,
    cover: request.cover,
    tiktokAiGenerated: request.tiktokAiGenerated,
    networkOptions: networkOptionsOf(request),
    overrides: checked.overrides,
    scheduledFor,
    requireApproval,
    createdBy: creatorOf(actor),
    createdAt: at,
    updatedAt: at,
    publishedAt: null,
    deletedAt: null,
    deletedReason: null,
    targets: checked.planned.map(({ account: a, firstComment }) => ({
      accountId: a.id,
      platform: a.platform,
      status,
      externalId: null,
      url: null,
      publishedAt: null,
      error: null,
      firstComment: firstComment === null ? null : { status: "pending", externalId: null, error: null },
      thread: [],
      attempts: 0
    }))
  }
  const newJobs = status !== "needs_approval" && enqueue ? yield* publishJobsFor(post, scheduledFor ?? at) : []
  // With a key, its claim is part of the same atomic write; a key already held stores nothing.
  const claim =
    idempotencyKey === null
      ? undefined
      : {
          scope: `${actor.workspaceId}:${actor.kind === "key" ? actor.keyId : actor.personId}`,
          key: idempotencyKey,
          requestHash: yield* crypto.sha256(canonicalJson(body)),
          postId,
          createdAt: at,
          expiresAt: at + IDEMPOTENCY_LIFETIME_MS
        }
  // Written with the post (or not at all); the limit's event only by the post that reaches it.
  const view = postView(post)
  const events = [
    yield* postEvent("post.created", post, at, {}, view),
    ...(status === "needs_approval" ? [yield* postEvent("post.needs_approval", post, at, {}, view)] : [])
  ]
  const atLimit =
    monthlyLimit === null
      ? undefined
      : yield* workspaceEvent("usage.limit_reached", workspace, at, {
          month,
          used: monthlyLimit,
          limit: monthlyLimit,
          plan: workspace.plan
        })
  const outcome = yield* (yield* PostCreator).create({
    post,
    jobs: newJobs,
    usage: { month, limit: monthlyLimit },
    claim,
    events,
    atLimit
  })
  if (outcome._tag === "OverCap") return yield* Effect.fail(fail("post_limit_reached", { limit: monthlyLimit, month }))
  if (outcome._tag === "Created") {
    // The owner's e-mail goes on its own fiber: the agent's answer does not wait for a mail server.
    if (status === "needs_approval")
      yield* Effect.forkDetach(
        tellOwnerPostWaits(post).pipe(
          Effect.catchCause((cause) => Effect.logWarning("approval e-mail not sent", cause))
        )
      )
    return { kind: "created" as const, body: { post: view } }
  }
  if (outcome.holder.requestHash !== claim?.requestHash) return yield* Effect.fail(fail("idempotency_key_reused"))
  const original = yield* (yield* PostRepo).findById(actor.workspaceId, outcome.holder.postId)
  if (Option.isNone(original)) return yield* Effect.fail(fail("post_not_found", { postId: outcome.holder.postId }))
  return { kind: "replayed" as const, body: { post: postView(original.value), replayed: true as const } }
})
