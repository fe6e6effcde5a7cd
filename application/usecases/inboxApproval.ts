import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { approvalVersion } from "../../domain/approval.ts"
import { fail, type HeraldError } from "../../domain/errors.ts"
import { approvalRequestMail, formatInZone, type WaitingPostInMail } from "../../domain/messages.ts"
import { platformNames } from "../../domain/platforms.ts"
import type { Post } from "../../domain/post.ts"
import { DAY_MS } from "../../domain/time.ts"
import type { Workspace } from "../../domain/workspace.ts"
import { HeraldConfig } from "../config.ts"
import { BlobStore } from "../ports/BlobStore.ts"
import { Crypto } from "../ports/Crypto.ts"
import { type InlineImage, Mailer } from "../ports/Mailer.ts"
import { PostRepo } from "../ports/PostRepo.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { now } from "./common.ts"
import { trySend } from "./mail.ts"
import { getPreview } from "./media/read.ts"
import { approvePost, rejectPost } from "./posts/actions.ts"
import { personIdOf } from "./sessions.ts"

/** A post approved "as soon as possible" keeps its e-mailed links this long. */
export const APPROVAL_LINK_LIFETIME_MS = 7 * DAY_MS
/** With the digest setting: posts arriving within this long of the last approval e-mail wait for one digest. */
export const DIGEST_WINDOW_MS = 10 * 60_000
const DIGEST_MAX_POSTS = 20

/** What an e-mailed link is bound to: one post, at the version the e-mail showed. */
interface LinkData {
  readonly postId: string
  readonly version: string
}

/** The workspace's owner, as the person an e-mailed approval acts for. */
const ownerOf = (workspace: Workspace) =>
  Effect.map(
    personIdOf(workspace.ownerEmail),
    (personId): Actor => ({
      kind: "person",
      workspaceId: workspace.id,
      personId,
      name: workspace.ownerEmail,
      email: workspace.ownerEmail
    })
  )

/**
 * A single-use link for one post at its current version, stored hashed like every token. It ends when
 * the post is due (approving later would publish late), or after 7 days for a post without a time.
 */
const mintLinks = Effect.fnUntraced(function* (workspace: Workspace, post: Post, at: number) {
  const crypto = yield* Crypto
  const token = yield* crypto.token()
  const data: LinkData = { postId: post.id, version: approvalVersion(post) }
  yield* (yield* TokenRepo).insert({
    hash: yield* crypto.sha256(token),
    kind: "approval",
    workspaceId: workspace.id,
    email: workspace.ownerEmail,
    data: JSON.stringify(data),
    createdAt: at,
    expiresAt: post.scheduledFor ?? at + APPROVAL_LINK_LIFETIME_MS
  })
  const base = `${(yield* HeraldConfig).publicUrl}/inbox?token=${token}`
  return { approve: `${base}&action=approve`, reject: `${base}&action=reject` }
})

/** The post's first media's preview, attached inline; none when there is no media or no storage here. */
const previewOf = Effect.fnUntraced(function* (owner: Actor, post: Post, index: number) {
  const first = post.mediaIds[0]
  const blobs = yield* Effect.serviceOption(BlobStore)
  if (first === undefined || Option.isNone(blobs)) return null
  const bytes = yield* Effect.option(getPreview(owner, first).pipe(Effect.provideService(BlobStore, blobs.value)))
  if (Option.isNone(bytes)) return null
  const image: InlineImage = {
    cid: `preview-${index}@herald`,
    filename: `preview-${index}.jpg`,
    contentType: "image/jpeg",
    content: bytes.value
  }
  return image
})

/** Mints the links of each post and e-mails them to the owner in one message. */
const mailPosts = Effect.fnUntraced(function* (workspace: Workspace, posts: ReadonlyArray<Post>, at: number) {
  const owner = yield* ownerOf(workspace)
  const items: Array<WaitingPostInMail> = []
  const images: Array<InlineImage> = []
  for (const [i, post] of posts.entries()) {
    const links = yield* mintLinks(workspace, post, at)
    const preview = yield* previewOf(owner, post, i)
    if (preview !== null) images.push(preview)
    items.push({
      agentName: post.createdBy.name,
      text: post.content,
      when: post.scheduledFor === null ? null : formatInZone(post.scheduledFor, workspace.timeZone, workspace.locale),
      networks: [...new Set(post.targets.map((t) => platformNames[t.platform]))],
      approveLink: links.approve,
      rejectLink: links.reject,
      previewCid: preview?.cid ?? null
    })
  }
  const mail = approvalRequestMail(workspace.locale, {
    posts: items,
    appLink: `${(yield* HeraldConfig).publicUrl}/app`
  })
  return yield* trySend(workspace.ownerEmail, { ...mail, inlineImages: images })
})

/** The token that holds a workspace's coming digest (tests wait for it: the waiting posts were seen). */
export const digestMarker = (workspaceId: string) => `approval_digest:${workspaceId}`

/**
 * A post started waiting: the owner hears of it by e-mail, as the workspace's setting says. With
 * "digest", a post arriving soon after the last approval e-mail waits (with any others) for one
 * digest, sent by the sweepers when the window ends. Hosts without a mailer send nothing.
 */
export const tellOwnerPostWaits = Effect.fn("tellOwnerPostWaits")(function* (post: Post) {
  const mailer = yield* Effect.serviceOption(Mailer)
  if (Option.isNone(mailer)) return
  const workspace = yield* (yield* WorkspaceRepo).findById(post.workspaceId)
  // An unclaimed workspace's owner approves after claiming, from the app (the claim e-mail says so).
  if (Option.isNone(workspace) || !workspace.value.claimed || workspace.value.approvalMail === "off") return
  const ws = workspace.value
  const at = yield* now
  const tokens = yield* TokenRepo
  if (ws.approvalMail === "digest") {
    const pending = yield* tokens.find(digestMarker(ws.id), "approval_digest", Number.NEGATIVE_INFINITY)
    if (Option.isSome(pending)) return
    const recent = (yield* tokens.listFor(ws.id, ws.ownerEmail, "approval", at)).some(
      (t) => t.createdAt > at - DIGEST_WINDOW_MS
    )
    if (recent) {
      yield* tokens.insert({
        hash: digestMarker(ws.id),
        kind: "approval_digest",
        workspaceId: ws.id,
        email: ws.ownerEmail,
        data: null,
        createdAt: at,
        expiresAt: at + DIGEST_WINDOW_MS
      })
      return
    }
  }
  yield* mailPosts(ws, [post], at).pipe(Effect.provideService(Mailer, mailer.value))
})

/** The sweepers' part: each digest whose window ended goes out, listing the waiting posts no e-mail showed yet. */
export const sendDueDigests = Effect.fn("sendDueDigests")(function* (batch: number) {
  const mailer = yield* Effect.serviceOption(Mailer)
  if (Option.isNone(mailer)) return { digests: 0 }
  const at = yield* now
  const tokens = yield* TokenRepo
  let sent = 0
  for (const marker of yield* tokens.takeDue("approval_digest", at, batch)) {
    const workspace = yield* (yield* WorkspaceRepo).findById(marker.workspaceId)
    if (Option.isNone(workspace) || workspace.value.approvalMail === "off") continue
    const ws = workspace.value
    const mailed = new Set(
      (yield* tokens.listFor(ws.id, ws.ownerEmail, "approval", at)).flatMap((t) =>
        t.data === null ? [] : [(JSON.parse(t.data) as LinkData).postId]
      )
    )
    const waiting = (yield* (yield* PostRepo).list(ws.id, { status: "needs_approval", limit: 100 })).filter(
      (p) => !mailed.has(p.id)
    )
    if (waiting.length === 0) continue
    // Oldest first, as the queue shows them; a long backlog is left to the app (its link is in the mail).
    yield* mailPosts(ws, [...waiting].reverse().slice(0, DIGEST_MAX_POSTS), at).pipe(
      Effect.provideService(Mailer, mailer.value)
    )
    sent++
  }
  return { digests: sent }
})

/** What an e-mailed link's confirming page shows: the post as it is now, and whether it is still what the e-mail showed. */
export const inspectApprovalLink = Effect.fn("inspectApprovalLink")(function* (token: string) {
  const found = yield* (yield* TokenRepo).find(yield* (yield* Crypto).sha256(token), "approval", yield* now)
  if (Option.isNone(found) || found.value.data === null) return yield* Effect.fail(fail("approval_link_invalid"))
  const data = JSON.parse(found.value.data) as LinkData
  const workspace = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(workspace)) return yield* Effect.fail(fail("approval_link_invalid"))
  const post = yield* (yield* PostRepo).findById(workspace.value.id, data.postId)
  const current = Option.filter(post, (p) => p.deletedAt === null && p.status === "needs_approval")
  return {
    workspace: workspace.value,
    post: Option.getOrNull(current),
    changed: Option.match(current, { onNone: () => false, onSome: (p) => approvalVersion(p) !== data.version })
  }
})

/**
 * The confirming page's POST: spends the link, then approves (bound to the version the e-mail
 * showed: a changed post is refused with post_changed) or rejects, as the workspace's owner.
 */
export const decideFromLink = Effect.fn("decideFromLink")(function* (
  token: string,
  action: "approve" | "reject",
  reason: string | null
) {
  const found = yield* (yield* TokenRepo).consume(yield* (yield* Crypto).sha256(token), "approval", yield* now)
  if (Option.isNone(found) || found.value.data === null) return yield* Effect.fail(fail("approval_link_invalid"))
  const data = JSON.parse(found.value.data) as LinkData
  const workspace = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(workspace)) return yield* Effect.fail(fail("approval_link_invalid"))
  const owner = yield* ownerOf(workspace.value)
  // A post that changed, or no longer waits, is an answer for the page, not an error.
  const settled = (e: HeraldError) =>
    e.code === "post_changed" || e.code === "post_state_conflict" || e.code === "post_not_found"
  const outcome: Effect.Effect<
    DecisionOutcome,
    HeraldError,
    Effect.Services<ReturnType<typeof approvePost>> | Effect.Services<ReturnType<typeof rejectPost>>
  > =
    action === "approve"
      ? Effect.map(approvePost(owner, data.postId, data.version), ({ post }) =>
          post.status === "scheduled" && post.scheduledFor !== null
            ? { _tag: "Scheduled" as const, at: Date.parse(post.scheduledFor) }
            : { _tag: "Publishing" as const }
        )
      : Effect.as(rejectPost(owner, data.postId, reason ?? undefined), { _tag: "Rejected" as const })
  return {
    workspace: workspace.value,
    outcome: yield* outcome.pipe(
      Effect.catchIf(settled, (e) =>
        Effect.succeed(e.code === "post_changed" ? { _tag: "Changed" as const } : { _tag: "Gone" as const })
      )
    )
  }
})

export type DecisionOutcome =
  | { readonly _tag: "Scheduled"; readonly at: number }
  | { readonly _tag: "Publishing" }
  | { readonly _tag: "Rejected" }
  | { readonly _tag: "Changed" }
  | { readonly _tag: "Gone" }
