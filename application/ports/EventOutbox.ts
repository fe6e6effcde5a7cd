import { Context, type Effect } from "effect"
import type { HeraldEvent } from "../../domain/events.ts"

/** An event as read back: its wire body and its place in the workspace's feed. */
export interface StoredEvent {
  readonly id: string
  readonly type: string
  readonly createdAt: number
  readonly body: string
  /** Opaque, increasing: GET /events?after= takes it. */
  readonly position: string
}

export interface EventQuery {
  /** Only events after this position (none: from the oldest kept). */
  readonly after: string | null
  readonly limit: number
  /** Only events about this resource (a post id, say). */
  readonly resourceId?: string | undefined
  /** Only these types (empty or absent: all). */
  readonly types?: ReadonlyArray<string> | undefined
}

export interface EventOutboxShape {
  /**
   * Stores events and, for each, one pending delivery to every enabled endpoint of its workspace
   * that subscribes to its type (a test event: to its own endpoint only). Inside Store.transaction
   * it joins the transaction, so the change and its events are written together or not at all.
   */
  readonly append: (events: ReadonlyArray<HeraldEvent>) => Effect.Effect<void>
  /**
   * A workspace's events after a position, oldest first. A reader never skips one: an event still
   * being written by an open transaction holds back the ones after it until it commits.
   */
  readonly list: (workspaceId: string, query: EventQuery) => Effect.Effect<ReadonlyArray<StoredEvent>>
  /** The newest position of a workspace's feed (null when it has none): "from now on". */
  readonly latest: (workspaceId: string) => Effect.Effect<string | null>
  /** Removes up to `limit` events written before `before` (with their deliveries); how many went. */
  readonly sweep: (before: number, limit: number) => Effect.Effect<number>
}

/** The outbox: events written in the same transaction as the change they report. */
export class EventOutbox extends Context.Service<EventOutbox, EventOutboxShape>()("herald/EventOutbox") {}
