import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import type { DryRunResult } from "../../../domain/contract/dryRun.ts"
import { targetPreview } from "../../../domain/dryRun.ts"
import { fetchingPlatforms, mediaFetchWarning } from "../../../domain/mediaReach.ts"
import { type CreatePostRequest, networkOptionsOf } from "../../../domain/postRequest.ts"
import type { CheckedPost } from "../../../domain/postRules.ts"
import { formatUtc } from "../../../domain/time.ts"
import type { Workspace } from "../../../domain/workspace.ts"
import { BlobStore } from "../../ports/BlobStore.ts"
import { UsageCounter } from "../../ports/UsageCounter.ts"
import { dryRunAdvice } from "./advice.ts"

export interface DryRunInput {
  readonly actor: Actor
  readonly request: CreatePostRequest
  readonly checked: CheckedPost
  readonly workspace: Workspace
  readonly requireApproval: boolean
  readonly monthlyLimit: number | null
  readonly month: string
  readonly at: number
  /** False for an edit's dry run: an edit never counts toward the month, so its cap cannot refuse it. */
  readonly counts?: boolean | undefined
}

/**
 * The warning for targets whose networks download the media by URL when the URL Herald would give
 * them cannot be reached from the internet (hosts without storage have no say), and those targets.
 */
const mediaReach = Effect.fnUntraced(function* (checked: CheckedPost) {
  const fetching = checked.planned.filter((t) => fetchingPlatforms([t.account.platform], t.media).length > 0)
  const fetched = fetching[0]?.media[0]
  if (fetched === undefined) return Option.none<{ warning: string; accountIds: ReadonlyArray<string> }>()
  const blobs = yield* Effect.serviceOption(BlobStore)
  const url = Option.isNone(blobs) ? Option.none<string>() : yield* Effect.option(blobs.value.url(fetched.blobKey))
  const warning = Option.flatMap(url, (u) =>
    Option.fromNullishOr(
      mediaFetchWarning(
        fetching.map((t) => t.account.platform),
        u
      )
    )
  )
  return Option.map(warning, (w) => ({ warning: w, accountIds: fetching.map((t) => t.account.id) }))
})

/**
 * A dry run's answer: valid or not, every warning (the spec's list), and each target as its network
 * would get it, with its length by the network's counting and its own warnings. Nothing is stored.
 */
export const dryRunResult = Effect.fn("dryRun")(function* (input: DryRunInput) {
  const { actor, request, checked, workspace, requireApproval, monthlyLimit, month, at } = input
  const warnings = [...checked.warnings]
  if (actor.kind === "key" && actor.requireApproval && request.requireApproval === false)
    warnings.push("requireApproval: false cannot bypass an asks-first key; the post would wait for approval.")
  const used = yield* (yield* UsageCounter).current(actor.workspaceId, month)
  const overCap = input.counts !== false && monthlyLimit !== null && used >= monthlyLimit
  if (overCap) warnings.push(`post_limit_reached: this workspace has used its ${monthlyLimit} posts for ${month}.`)
  if (!workspace.claimed)
    warnings.push("The workspace is unclaimed: nothing is published before the owner claims it and approves the post.")
  const reach = yield* mediaReach(checked)
  if (Option.isSome(reach)) warnings.push(reach.value.warning)
  const advice = yield* dryRunAdvice(checked.planned, networkOptionsOf(request), checked.scheduledFor ?? at)
  const targets = checked.planned.map((target, i) =>
    targetPreview(target, [
      ...(Option.isSome(reach) && reach.value.accountIds.includes(target.account.id) ? [reach.value.warning] : []),
      ...advice[i]!
    ])
  )
  for (const target of targets)
    for (const warning of target.warnings) if (!warnings.includes(warning)) warnings.push(warning)
  return {
    dryRun: true as const,
    // Accounts needing reconnection would refuse the post now.
    valid: !overCap && checked.stale.length === 0,
    warnings,
    requireApproval,
    targets,
    wouldPost: {
      status: requireApproval ? "needs_approval" : checked.scheduledFor !== null ? "scheduled" : "publishing",
      scheduledFor: checked.scheduledFor === null ? null : formatUtc(checked.scheduledFor),
      content: request.content,
      mediaIds: request.mediaIds,
      firstComment: request.firstComment,
      thread: request.thread,
      poll: request.poll,
      cover: request.cover,
      tiktokAiGenerated: request.tiktokAiGenerated,
      overrides: checked.overrides,
      targets: checked.targets.map((a) => ({ accountId: a.id, platform: a.platform, username: a.username })),
      usage: { month, used, limit: monthlyLimit }
    }
  } satisfies DryRunResult
})
