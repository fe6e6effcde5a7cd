import { Result } from "effect"
import type { Account } from "./account.ts"
import type { ScheduledForInput } from "./contract/planning.ts"
import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { isExpired, type Media } from "./media.ts"
import { checkNetworkOptions } from "./networkChecks/index.ts"
import { networkRules } from "./networkRules.ts"
import {
  contentFor,
  type Overrides,
  overrideMediaIds,
  overridesFor,
  sourceField,
  untargetedOverrides
} from "./overrides.ts"
import { type CheckedTarget, collectWarnings, type PlannedTarget, refusal, videosOf } from "./plannedTarget.ts"
import { platformNames } from "./platforms.ts"
import type { CreatePostRequest } from "./postRequest.ts"
import { checkScheduledFor } from "./scheduledFor.ts"
import { checkTargetLimits } from "./targetLimits.ts"

export interface RulesContext {
  readonly now: number
  /** Every account of the workspace (to tell "none connected" from "not found"). */
  readonly accounts: ReadonlyArray<Account>
  /** The media named by the request that exist in the workspace (missing ones are absent). */
  readonly media: ReadonlyArray<Media>
  /** The zone a local `scheduledFor` without its own is read in (the targets'); absent: it must name one. */
  readonly timeZone?: string | undefined
}

export interface CheckedPost {
  readonly scheduledFor: number | null
  readonly targets: ReadonlyArray<Account>
  /** The targets in request order, each with its network's final content and its own warnings. */
  readonly planned: ReadonlyArray<CheckedTarget>
  /** The request's overrides for the targeted networks (others are ignored, with a warning). */
  readonly overrides: Overrides
  /** Every warning, the targets' included, once each. */
  readonly warnings: ReadonlyArray<string>
  /** Accounts that need reconnecting (only a dry run gets this far with them: it reports them per target). */
  readonly stale: ReadonlyArray<Account>
}

/**
 * Parses `scheduledFor`: strict ISO 8601 with an offset, or a local time in a zone (scheduledFor.ts);
 * in the future, under one year ahead.
 */
export const checkSchedule = (
  value: ScheduledForInput | null,
  now: number,
  defaultZone?: string
): Result.Result<number | null, HeraldError> => checkScheduledFor(value, now, defaultZone)

const idsOf = (accounts: ReadonlyArray<Account>) => accounts.map((a) => a.id)

/** Every rule of the spec and of the per-network table, in a fixed order; first failure wins. Each target is checked on its final content. */
export const checkPost = (request: CreatePostRequest, ctx: RulesContext): Result.Result<CheckedPost, HeraldError> => {
  const schedule = checkSchedule(request.scheduledFor, ctx.now, ctx.timeZone)
  if (Result.isFailure(schedule)) return Result.fail(schedule.failure)
  const scheduledFor = schedule.success

  if (ctx.accounts.length === 0) return Result.fail(fail("no_accounts_connected"))
  const byId = new Map(ctx.accounts.map((a) => [a.id, a]))
  const missingAccounts = request.accountIds.filter((id) => !byId.has(id))
  if (missingAccounts.length > 0) return Result.fail(fail("account_not_found", { accountIds: missingAccounts }))
  const targets = request.accountIds.map((id) => byId.get(id)!)
  const stale = targets.filter((a) => a.status !== "connected")
  if (stale.length > 0 && !request.dryRun)
    return Result.fail(fail("account_needs_reconnection", { accountIds: idsOf(stale) }))

  const collected = collectWarnings()
  const warnings = collected.warnings
  const targeted = targets.map((a) => a.platform)
  for (const platform of untargetedOverrides(request.overrides, targeted))
    warnings.post(`overrides.${platform} is ignored: no ${platformNames[platform]} account is targeted.`)
  const overrides = overridesFor(request.overrides, targeted)

  const mediaById = new Map(ctx.media.map((m) => [m.id, m]))
  const coverId = request.cover && "mediaId" in request.cover ? request.cover.mediaId : null
  const wanted = [...request.mediaIds, ...overrideMediaIds(overrides), ...(coverId ? [coverId] : [])]
  const missingMedia = wanted.filter((id) => !mediaById.has(id))
  if (missingMedia.length > 0) return Result.fail(fail("media_not_found", { mediaIds: [...new Set(missingMedia)] }))
  const expired = wanted.filter((id) => isExpired(mediaById.get(id)!, ctx.now))
  if (expired.length > 0) return Result.fail(fail("media_expired", { mediaIds: [...new Set(expired)] }))
  const post = { ...request, overrides }
  const planned: ReadonlyArray<PlannedTarget> = targets.map((account) => {
    const content = contentFor(post, account.platform)
    return { ...content, account, media: content.mediaIds.map((id) => mediaById.get(id)!) }
  })
  const field = (t: PlannedTarget, name: Parameters<typeof sourceField>[2]) =>
    sourceField(overrides, t.account.platform, name)

  const refuse = (
    code: Parameters<typeof fail>[0],
    refused: ReadonlyArray<PlannedTarget>,
    extra?: Record<string, unknown>
  ) => Result.fail(refusal(code, refused, extra))

  const empty = planned.find((t) => t.content.trim() === "" && t.media.length === 0 && request.poll === null)
  if (empty !== undefined)
    return Result.fail(
      invalidFields(
        [field(empty, "content"), field(empty, "mediaIds")],
        `The ${platformNames[empty.account.platform]} post would have no content, media or poll.`
      )
    )
  const needMedia = planned.filter((t) => t.media.length === 0 && networkRules[t.account.platform].mediaRequired)
  if (needMedia.length > 0) return refuse("media_required", needMedia)
  const threaded = planned.filter((t) => t.thread.length > 0)
  const noThreads = threaded.filter((t) => networkRules[t.account.platform].maxThreadReplies === 0)
  if (noThreads.length > 0) return refuse("thread_unsupported", noThreads)
  const tooMany = threaded.find((t) => t.thread.length > networkRules[t.account.platform].maxThreadReplies)
  if (tooMany !== undefined) {
    const max = networkRules[tooMany.account.platform].maxThreadReplies
    const overThread = threaded.filter((t) => t.thread.length > networkRules[t.account.platform].maxThreadReplies)
    return Result.fail(
      fail(
        "validation_failed",
        { fields: [field(tooMany, "thread")], accountIds: overThread.map((t) => t.account.id), maxThreadReplies: max },
        `${platformNames[tooMany.account.platform]} threads take at most ${max} replies.`
      )
    )
  }
  if (request.poll !== null) {
    const no = planned.filter((t) => networkRules[t.account.platform].poll === null)
    if (no.length > 0) return refuse("poll_unsupported", no)
    const withMedia = planned.filter((t) => t.media.length > 0)
    if (withMedia.length > 0)
      return refuse("poll_unsupported", withMedia, { reason: "A poll cannot be sent with media." })
  }
  const noComments = planned.filter((t) => t.firstComment !== null && !networkRules[t.account.platform].firstComment)
  if (noComments.length > 0) return refuse("first_comment_unsupported", noComments)
  if (request.cover !== null) {
    // A cover applies to the targets that post a video.
    const covered = planned.filter((t) => videosOf(t).length > 0)
    if (covered.length === 0)
      return Result.fail(invalidFields(["cover"], "A cover applies to a video; add a video upload."))
    const no = covered.filter((t) => !networkRules[t.account.platform].cover)
    if (no.length > 0) return refuse("cover_unsupported", no)
    if (coverId !== null && mediaById.get(coverId)!.type !== "image")
      return Result.fail(invalidFields(["cover.mediaId"], "cover.mediaId must be an image upload."))
    const kind = coverId !== null ? "image" : "offset"
    const otherKind = covered.filter(
      (t) => !(networkRules[t.account.platform].coverKinds ?? ["image", "offset"]).includes(kind)
    )
    if (otherKind.length > 0)
      return refuse("cover_unsupported", otherKind, {
        reason:
          kind === "image"
            ? "These networks take a frame of the video as cover (cover.offsetMs), not an image."
            : "These networks take a cover image (cover.mediaId), not a frame offset."
      })
    if ("offsetMs" in request.cover) {
      const offset = request.cover.offsetMs
      const short = covered
        .map((t) => videosOf(t)[0].durationMs)
        .find((duration) => duration !== null && offset > duration)
      if (short != null)
        return Result.fail(
          invalidFields(["cover.offsetMs"], `cover.offsetMs is past the end of the video (${short} ms).`)
        )
    }
  }

  const networkProblem = checkNetworkOptions(
    request,
    planned,
    coverId === null ? null : mediaById.get(coverId)!,
    field,
    warnings
  )
  if (networkProblem !== null) return Result.fail(networkProblem)

  // Per-network limits on each target's final text and media, and polls.
  for (const target of planned) {
    const problem = checkTargetLimits(
      request,
      target,
      (name) => field(target, name),
      (message) => warnings.target(target, message)
    )
    if (problem !== null) return Result.fail(problem)
  }
  const checked = planned.map((target) => ({ ...target, warnings: collected.of(target) }))
  return Result.succeed({ scheduledFor, targets, planned: checked, overrides, warnings: collected.all, stale })
}
