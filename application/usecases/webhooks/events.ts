import { Effect } from "effect"
import type { Account } from "../../../domain/account.ts"
import type { EventType, HeraldEvent, ResourceKind } from "../../../domain/events.ts"
import type { Post as PostView } from "../../../domain/contract/post.ts"
import type { Post, Target } from "../../../domain/post.ts"
import { formatUtc } from "../../../domain/time.ts"
import type { Workspace } from "../../../domain/workspace.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { EventOutbox } from "../../ports/EventOutbox.ts"
import { accountView } from "../accountView.ts"
import { postView, targetView } from "../posts/view.ts"

/**
 * A new event: a fresh id, and its wire body fixed now (the envelope of domain/events.ts), so every
 * try of every delivery sends the same bytes.
 */
export const newEvent = Effect.fnUntraced(function* (
  type: HeraldEvent["type"],
  workspaceId: string,
  resource: { readonly kind: ResourceKind; readonly id: string },
  orderingKey: string,
  at: number,
  data: unknown
) {
  const id = yield* (yield* Crypto).id("evt")
  const body = JSON.stringify({
    id,
    type,
    timestamp: formatUtc(at),
    workspaceId,
    resource: { type: resource.kind, id: resource.id },
    data
  })
  return { id, type, workspaceId, resource, orderingKey, createdAt: at, body } satisfies HeraldEvent
})

/** A post.* event with the post as the API shows it now (its view, when the caller has built it); a post's events reach an endpoint in order. */
export const postEvent = (
  type: EventType,
  post: Post,
  at: number,
  extra: Record<string, unknown> = {},
  view: PostView = postView(post)
) => newEvent(type, post.workspaceId, { kind: "post", id: post.id }, post.id, at, { post: view, ...extra })

/** A target.* or first_comment.* event: ordered with its post's events. */
export const targetEvent = (type: EventType, post: Post, target: Target, at: number) =>
  newEvent(type, post.workspaceId, { kind: "post", id: post.id }, post.id, at, {
    postId: post.id,
    target: targetView(target)
  })

export const accountEvent = (type: EventType, account: Account, at: number) =>
  newEvent(type, account.workspaceId, { kind: "account", id: account.id }, account.id, at, {
    account: accountView(account)
  })

export const workspaceEvent = (type: EventType, workspace: Workspace, at: number, data: unknown) =>
  newEvent(type, workspace.id, { kind: "workspace", id: workspace.id }, workspace.id, at, data)

/** Writes events to the outbox (inside the caller's transaction, with the change they report). */
export const emit = (events: ReadonlyArray<HeraldEvent>) =>
  Effect.flatMap(EventOutbox, (outbox) => outbox.append(events))
