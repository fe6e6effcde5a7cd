import type { Actor } from "./apiKey.ts"
import { type CreatePostBody, networkOptionsField, type UpdatePostBody } from "./contract/postRequest.ts"
import { contentFor } from "./overrides.ts"
import type { Platform } from "./platforms.ts"
import { type Post, sendsBackForApproval, type Target } from "./post.ts"
import { networkOptionsOf, type CreatePostRequest } from "./postRequest.ts"
import type { CheckedPost } from "./postRules.ts"
import { formatUtc } from "./time.ts"

// An edit of a post that has not gone out: the create body it amounts to (so the create's rules
// check it, one source of truth), the post it makes, and what changed for each target.

/** Present in the edit: a field sent (null included, which clears it). */
const given = <K extends keyof UpdatePostBody>(edit: UpdatePostBody, key: K) => edit[key] !== undefined

/**
 * The create body that would make the post as it is, with the edit's fields laid over it. The time is
 * kept: checked like a create's while it is ahead; an overdue one (waiting past it for approval) is now.
 */
export const editedBody = (post: Post, edit: UpdatePostBody, now: number): CreatePostBody => {
  const aliasMedia = edit.mediaId !== undefined && edit.mediaId !== null
  const aliasThread = edit.firstReply !== undefined && edit.firstReply !== null
  const base: CreatePostBody = {
    accountIds: post.targets.map((t) => t.accountId),
    content: post.content,
    ...(aliasMedia && !given(edit, "mediaIds") ? {} : { mediaIds: post.mediaIds }),
    firstComment: post.firstComment,
    ...(aliasThread && !given(edit, "thread") ? {} : { thread: post.thread }),
    poll:
      post.poll === null
        ? null
        : {
            options: post.poll.options,
            durationMinutes: post.poll.durationMinutes,
            question: post.poll.question ?? null
          },
    cover: post.cover,
    tiktokAiGenerated: post.tiktokAiGenerated,
    // Every network's object the post keeps, whichever networks there are.
    ...post.networkOptions,
    overrides: post.overrides,
    scheduledFor: post.scheduledFor !== null && post.scheduledFor > now ? formatUtc(post.scheduledFor) : null
  }
  const laid = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined))
  return { ...base, ...laid } as CreatePostBody
}

/**
 * Where an edit leaves the post: waiting stays waiting (a person's edit is not an approval); an approved
 * post edited by a key goes back to a person, since the approval was for what the person saw.
 */
export const statusAfterEdit = (post: Post, actor: Actor): "needs_approval" | "scheduled" =>
  post.status === "needs_approval" || sendsBackForApproval(actor.kind, post) ? "needs_approval" : "scheduled"

/** The post after the edit: kept targets keep their record, added ones start fresh, removed ones go. */
export const editedPost = (
  post: Post,
  request: CreatePostRequest,
  checked: CheckedPost,
  status: "needs_approval" | "scheduled",
  at: number
): Post => ({
  ...post,
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
  requireApproval: post.requireApproval || status === "needs_approval",
  updatedAt: at,
  targets: checked.planned.map(({ account, firstComment }): Target => {
    const kept = post.targets.find((t) => t.accountId === account.id)
    const comment = firstComment === null ? null : { status: "pending" as const, externalId: null, error: null }
    return kept === undefined
      ? {
          accountId: account.id,
          platform: account.platform,
          status,
          externalId: null,
          url: null,
          publishedAt: null,
          error: null,
          firstComment: comment,
          thread: [],
          attempts: 0
        }
      : { ...kept, status, firstComment: comment }
  })
})

/** What an edit does to one target: added, removed, or which of what it publishes changed. */
export interface TargetChange {
  readonly accountId: string
  readonly platform: Platform
  readonly change: "added" | "removed" | "changed" | "unchanged"
  readonly fields: ReadonlyArray<string>
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** What each network would get differently; fields are named as the request names them. */
const changedFields = (before: Post, after: Post, platform: Platform): ReadonlyArray<string> => {
  const was = contentFor(before, platform)
  const now = contentFor(after, platform)
  const field: string | undefined = (networkOptionsField as Partial<Record<Platform, string>>)[platform]
  const own = (p: Post) => (field === undefined ? undefined : (p.networkOptions as Record<string, unknown>)[field])
  return [
    ...(["content", "mediaIds", "thread", "firstComment"] as const).filter((f) => !same(was[f], now[f])),
    ...(same(before.poll, after.poll) ? [] : ["poll"]),
    ...(same(before.cover, after.cover) ? [] : ["cover"]),
    ...(before.tiktokAiGenerated === after.tiktokAiGenerated ? [] : ["tiktokAiGenerated"]),
    ...(field === undefined || same(own(before), own(after)) ? [] : [field])
  ]
}

/** Each target's change, the post's after-edit targets first (in order), then the removed ones. */
export const editChanges = (before: Post, after: Post): ReadonlyArray<TargetChange> => [
  ...after.targets.map((t): TargetChange => {
    if (!before.targets.some((b) => b.accountId === t.accountId))
      return { accountId: t.accountId, platform: t.platform, change: "added", fields: [] }
    const fields = changedFields(before, after, t.platform)
    return { accountId: t.accountId, platform: t.platform, change: fields.length > 0 ? "changed" : "unchanged", fields }
  }),
  ...before.targets
    .filter((b) => !after.targets.some((t) => t.accountId === b.accountId))
    .map((b): TargetChange => ({ accountId: b.accountId, platform: b.platform, change: "removed", fields: [] }))
]
