import { Effect, Schema } from "effect"
import type { Account } from "../../../domain/account.ts"
import type { EventType, HeraldEvent, ResourceKind } from "../../../domain/events.ts"
import { type EventData, eventSchemas } from "../../../domain/contract/events.ts"
import type { Post as PostView } from "../../../domain/contract/post.ts"
import type { Post, Target } from "../../../domain/post.ts"
import { formatUtc } from "../../../domain/time.ts"
import type { Workspace } from "../../../domain/workspace.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { EventOutbox } from "../../ports/EventOutbox.ts"
import { accountView } from "../accountView.ts"
import { postView, targetView } from "../posts/view.ts"

type EventTypeOrTest = HeraldEvent["type"]

// One encoder per event type, made on first use: the body is what the contract's schema encodes. The
// data is built in its wire form, so the encoded side checks it and drops what the contract does not
// name: on post.created, on the create's hot path, 1.2x a bare JSON.stringify where the full encode was 4x.
const encoders = new Map<EventTypeOrTest, (envelope: unknown) => unknown>()
const encoderOf = (type: EventTypeOrTest) => {
  let encode = encoders.get(type)
  if (encode === undefined) {
    encode = Schema.encodeSync(Schema.toEncoded(eventSchemas[type]) as Schema.Codec<unknown, unknown>, {
      errors: "first"
    })
    encoders.set(type, encode)
  }
  return encode
}

/**
 * A new event: a fresh id, and its wire body fixed now (the envelope of domain/contract/events.ts,
 * encoded by that type's schema), so every try of every delivery sends the same bytes and nothing
 * the contract does not name.
 */
export const newEvent = Effect.fnUntraced(function* <T extends EventTypeOrTest>(
  type: T,
  workspaceId: string,
  resource: { readonly kind: ResourceKind; readonly id: string },
  orderingKey: string,
  at: number,
  data: EventData<T>
) {
  const id = yield* (yield* Crypto).id("evt")
  const envelope = {
    id,
    type,
    timestamp: formatUtc(at),
    workspaceId,
    resource: { type: resource.kind, id: resource.id },
    data
  }
  const body = JSON.stringify(encoderOf(type)(envelope))
  return { id, type, workspaceId, resource, orderingKey, createdAt: at, body } satisfies HeraldEvent
})

type PostEventType = {
  [T in EventType]: EventData<T> extends { readonly post: PostView } ? T : never
}[EventType]

type Extra<T extends PostEventType> = Omit<EventData<T>, "post">

/** A post.* event with the post as the API shows it now (its view, when the caller has built it); a post's events reach an endpoint in order. */
export const postEvent = <T extends PostEventType>(
  type: T,
  post: Post,
  at: number,
  // What the type carries beside the post; required where its schema requires it (post.rescheduled).
  ...[extra, view]: {} extends Extra<T> ? [extra?: Extra<T>, view?: PostView] : [extra: Extra<T>, view?: PostView]
) =>
  newEvent(type, post.workspaceId, { kind: "post", id: post.id }, post.id, at, {
    post: view ?? postView(post),
    ...extra
  } as EventData<T>)

type TargetEventType =
  | "target.published"
  | "target.failed"
  | "target.deletion_requested"
  | "target.deleted"
  | "target.deletion_failed"
  | "first_comment.published"
  | "first_comment.failed"

/** A target.* or first_comment.* event: ordered with its post's events. */
export const targetEvent = (type: TargetEventType, post: Post, target: Target, at: number) =>
  newEvent(type, post.workspaceId, { kind: "post", id: post.id }, post.id, at, {
    postId: post.id,
    target: targetView(target)
  })

/** An account.* event; a disconnected account shows as `disconnected`, as it then is. */
export const accountEvent = (
  type: "account.connected" | "account.needs_reconnection" | "account.disconnected",
  account: Account,
  at: number
) =>
  newEvent(type, account.workspaceId, { kind: "account", id: account.id }, account.id, at, {
    account:
      type === "account.disconnected"
        ? { ...accountView(account), status: "disconnected" as const }
        : accountView(account)
  } as EventData<typeof type>)

export const workspaceEvent = <T extends EventTypeOrTest>(
  type: T,
  workspace: Workspace,
  at: number,
  data: EventData<T>
) => newEvent(type, workspace.id, { kind: "workspace", id: workspace.id }, workspace.id, at, data)

/** Writes events to the outbox (inside the caller's transaction, with the change they report). */
export const emit = (events: ReadonlyArray<HeraldEvent>) =>
  Effect.flatMap(EventOutbox, (outbox) => outbox.append(events))
