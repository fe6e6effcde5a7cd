import { Effect, Schema } from "effect"
import * as Actions from "../../../application/usecases/posts/actions.ts"
import { createPost } from "../../../application/usecases/posts/create.ts"
import { getPost, listPosts } from "../../../application/usecases/posts/query.ts"
import { DryRunResult, EditDryRunResult } from "../../../domain/contract/dryRun.ts"
import { PostEnvelope, PostList, RemovedPost, ReplayedPost } from "../../../domain/contract/post.ts"
import { ScheduledForInput } from "../../../domain/contract/planning.ts"
import { createPostFields, updatePostFields } from "../../../domain/contract/postRequest.ts"
import { updatePost } from "../../../application/usecases/posts/update.ts"
import { takeDownPost, takeDownTarget } from "../../../application/usecases/posts/takedown.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { tool } from "../tool.ts"

const freePosts = planLimits.free.postsPerMonth
const time = "ISO 8601 with a timezone offset, e.g. 2026-12-01T09:00:00+09:00 or 2026-12-01T00:00:00Z"
const postId = Schema.String.annotate({ description: "The post's id (post_...)" })

// The REST body's schema, with the idempotency key REST sends as a header.
const createInput = Schema.Struct({
  ...createPostFields,
  idempotencyKey: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Any unique string (1-255 characters) for this post. Retrying with the same key and arguments returns the original post (replayed: true) instead of posting twice; the same key with other arguments gives idempotency_key_reused"
    })
  )
})

export const createPostTool = tool({
  name: "create_post",
  title: "Create, schedule or dry-run a post",
  description: [
    "Publishes a post to one or more connected accounts now, at scheduledFor, or (dryRun) only checks it.",
    "Dry-run first when unsure: it reports warnings and exactly what would be posted, and costs nothing.",
    "If your key is asks-first (keys from sign_up always are), or requireApproval is true, the post is created in needs_approval:",
    "it waits until the human approves it in the Herald app; tell them. You can read, reschedule, reject or cancel your own posts, never approve them.",
    `Free workspaces may create ${freePosts} posts a calendar month (UTC); more gives post_limit_reached. Dry runs never count.`,
    "Instagram, TikTok, YouTube and Pinterest need media (upload_media first). Set idempotencyKey so a retry after a lost answer never posts twice.",
    "To post at a local time send scheduledFor: {local: '2027-03-28T09:00', timeZone: 'Europe/Berlin'}; to take the next free slot of the accounts' posting schedule send queue: true (get_schedules); the answer's planned shows the time in UTC and local time.",
    "To say different things on different networks, add overrides keyed by platform, e.g. overrides: {x: {content: 'short'}, linkedin: {content: 'long', firstComment: 'link'}}; each network's rules apply to its own final content.",
    "The answer is {post} (or {post, replayed: true} on a retry) with status needs_approval, scheduled, publishing, published or failed and one target per account; for a dry run it is {dryRun, valid, warnings, requireApproval, wouldPost, targets}, targets giving each account's final content, its length as its network counts it, and its own warnings.",
    "Errors name the problem in error.code, e.g. validation_failed (details.fields), scheduled_in_past, media_required, media_expired, account_not_found."
  ].join(" "),
  input: createInput,
  output: Schema.Union([PostEnvelope, ReplayedPost, DryRunResult]),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: ({ idempotencyKey, ...body }, call) =>
    Effect.map(createPost(call.actor, body, idempotencyKey ?? null), (result) => result.body)
})

export const listPostsTool = tool({
  name: "list_posts",
  title: "List recent posts",
  description:
    "Posts of this workspace, newest first, each with per-account targets. Filter by status; page with cursor (from nextCursor, null on the last page).",
  input: Schema.Struct({
    status: Schema.optional(
      Schema.String.annotate({ description: "needs_approval, scheduled, publishing, published or failed" })
    ),
    limit: Schema.optional(Schema.Int.annotate({ description: "1-100, default 20" })),
    cursor: Schema.optional(Schema.String.annotate({ description: "nextCursor of the previous page" }))
  }),
  output: PostList,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, call) =>
    listPosts(call.actor, {
      status: args.status,
      limit: args.limit === undefined ? undefined : String(args.limit),
      cursor: args.cursor
    })
})

export const getPostTool = tool({
  name: "get_post",
  title: "Read one post",
  description:
    "One post with each account's status, the network's link once published, and any error. Cancelled and rejected posts are gone (post_not_found).",
  input: Schema.Struct({ postId }),
  output: PostEnvelope,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args, call) => getPost(call.actor, args.postId)
})

export const cancelPostTool = tool({
  name: "cancel_post",
  title: "Cancel a post before it goes out",
  description:
    "Cancels one of your own posts while it is needs_approval or scheduled; it disappears from the API. A key may cancel only the posts it created (cancel_not_own_post).",
  input: Schema.Struct({ postId }),
  output: RemovedPost,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (args, call) => Actions.cancelPost(call.actor, args.postId)
})

export const rejectPostTool = tool({
  name: "reject_post",
  title: "Withdraw a post that waits for approval",
  description:
    "Rejects one of your own posts in needs_approval (you changed your mind before the human approved it); it disappears from the API. Only the creating key may do it (reject_not_own_post).",
  input: Schema.Struct({ postId }),
  output: RemovedPost,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (args, call) => Actions.rejectPost(call.actor, args.postId)
})

export const reschedulePostTool = tool({
  name: "reschedule_post",
  title: "Change when a post goes out",
  description:
    "Moves one of your own posts in needs_approval or scheduled to a new time. A post waiting for approval still waits; it goes out at the new time once approved.",
  input: Schema.Struct({
    postId,
    scheduledFor: ScheduledForInput.annotate({
      description: `The new time: ${time}, or a local time {local, timeZone}. Future, under a year ahead`
    })
  }),
  output: PostEnvelope,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: (args, call) => Actions.reschedulePost(call.actor, args.postId, { scheduledFor: args.scheduledFor })
})

export const updatePostTool = tool({
  name: "update_post",
  title: "Edit a post before it goes out",
  description: [
    "Changes one of your own posts while it is needs_approval or scheduled: content, mediaIds, thread, firstComment, poll, cover, the per-network objects, overrides, or accountIds (targets added or removed).",
    "Send only what changes: a field given replaces the post's (null clears it), one left out stays. The create's rules apply, each target by its network.",
    "If a person had approved the post, your edit sends it back to needs_approval: tell them. Once publishing or published it can no longer be edited (post_not_editable).",
    "dryRun: true answers what would change, per target (changes), without storing anything. Nothing is sent to a network by an edit. To move it in time use reschedule_post."
  ].join(" "),
  input: Schema.Struct({ postId, ...updatePostFields }),
  output: Schema.Union([PostEnvelope, EditDryRunResult]),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ postId: id, ...body }, call) => updatePost(call.actor, id, body)
})

export const takeDownPostTool = tool({
  name: "take_down_post",
  title: "Remove a published post from its networks",
  description: [
    "Takes one of your own published posts down from the network, with its thread and first comment: one account (accountId) or every account it went to (accountId left out, all or none).",
    "Instagram and TikTok do not let apps remove posts: unpublish_unsupported names the network; the person removes it in the network's app.",
    "The answer comes at once with target.deletion.status deleting; it becomes deleted once the network confirmed (wait_for_post or get_post), or failed with the reason. Asking again is harmless.",
    "If your key is asks-first, the take-down waits for the human (awaiting_approval): tell them."
  ].join(" "),
  input: Schema.Struct({
    postId,
    accountId: Schema.optionalKey(
      Schema.String.annotate({ description: "The target's account id; left out: every target on a network" })
    )
  }),
  output: PostEnvelope,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: (args, call) =>
    args.accountId === undefined
      ? takeDownPost(call.actor, args.postId)
      : takeDownTarget(call.actor, args.postId, args.accountId)
})
