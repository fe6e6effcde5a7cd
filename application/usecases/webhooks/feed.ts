import { Clock, Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { fail, invalidFields } from "../../../domain/errors.ts"
import { eventTypes, isEventType, isFinal } from "../../../domain/events.ts"
import { isWellFormedId } from "../../../domain/ids.ts"
import type { Post } from "../../../domain/post.ts"
import { EventOutbox, type StoredEvent } from "../../ports/EventOutbox.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { TokenVault } from "../../ports/TokenVault.ts"
import { postView } from "../posts/view.ts"

export const MAX_WAIT_SECONDS = 60
/** How often a waiting caller looks again: the feed is in the database, shared by every process. */
export const LOOK_EVERY_MS = 250

export interface EventFeedQuery {
  readonly after?: string | undefined
  readonly limit?: string | undefined
  /** Comma-separated event types. */
  readonly types?: string | undefined
  readonly postId?: string | undefined
  readonly waitSeconds?: string | undefined
}

/** Runs `look` until it finds something or `waitMs` has passed (the caller's long-poll). */
const waitFor = <A>(look: Effect.Effect<A>, found: (a: A) => boolean, waitMs: number) =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + waitMs
    while (true) {
      const result = yield* look
      const left = deadline - (yield* Clock.currentTimeMillis)
      if (found(result) || left <= 0) return result
      yield* Effect.sleep(Math.min(LOOK_EVERY_MS, left))
    }
  })

/**
 * The position a cursor stands for. Cursors are sealed with the workspace's id (AES-GCM under
 * HERALD_SECRET): the feed's position is one sequence for all workspaces, so a readable one would tell
 * how busy the others are (README "Security"); another workspace's cursor, or a forged one, is refused.
 */
const positionOf = Effect.fnUntraced(function* (
  vault: TokenVault["Service"],
  workspaceId: string,
  cursor: string | undefined
) {
  if (cursor === undefined || cursor === "0") return null
  const opened = yield* Effect.option(vault.open(cursor))
  const [owner, position] = Option.getOrElse(opened, () => "").split(":")
  if (owner !== workspaceId || position === undefined || !/^[0-9]{1,18}$/.test(position))
    return yield* Effect.fail(invalidFields(["after"], "after is a nextCursor this feed gave."))
  return position
})

const seconds = (raw: string | undefined) =>
  raw === undefined ? 0 : /^[0-9]{1,3}$/.test(raw) ? Number(raw) : Number.NaN

/**
 * GET /events: the workspace's events after `after` (a cursor from `nextCursor`; none: the oldest
 * kept), oldest first, optionally of some types or about one post. With `waitSeconds` (up to 60) it
 * answers as soon as there is one, or empty when the time is up: an agent without a URL waits for
 * its human's decision in one call. The same objects webhooks deliver.
 */
export const listEvents = Effect.fn("listEvents")(function* (actor: Actor, query: EventFeedQuery) {
  const bad: Array<string> = []
  const limit = query.limit === undefined ? 50 : /^[0-9]{1,3}$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) bad.push("limit")
  if (query.after !== undefined && query.after !== "0" && !/^v1\.[A-Za-z0-9._-]{1,300}$/.test(query.after))
    bad.push("after")
  const types = query.types === undefined || query.types === "" ? [] : query.types.split(",")
  if (!types.every(isEventType)) bad.push("types")
  if (query.postId !== undefined && !isWellFormedId(query.postId)) bad.push("postId")
  const wait = seconds(query.waitSeconds)
  if (!Number.isInteger(wait) || wait > MAX_WAIT_SECONDS) bad.push("waitSeconds")
  if (bad.length > 0)
    return yield* Effect.fail(
      invalidFields(
        bad,
        `limit is 1-100; after is a nextCursor; types are some of ${eventTypes.join(", ")}; waitSeconds is 0-${MAX_WAIT_SECONDS}.`
      )
    )
  const outbox = yield* EventOutbox
  const vault = yield* TokenVault
  const after = yield* positionOf(vault, actor.workspaceId, query.after)
  const events = yield* waitFor(
    outbox.list(actor.workspaceId, { after, limit, types, resourceId: query.postId }),
    (found: ReadonlyArray<StoredEvent>) => found.length > 0,
    wait * 1000
  )
  const last = events[events.length - 1]
  return {
    events: events.map((e) => JSON.parse(e.body) as unknown),
    nextCursor: last === undefined ? (query.after ?? "0") : yield* vault.seal(`${actor.workspaceId}:${last.position}`)
  }
})

export type WaitUntil = "decision" | "final"

const settled = (post: Post, until: WaitUntil) =>
  post.deletedAt !== null || (until === "decision" ? post.status !== "needs_approval" : isFinal(post.status))

/**
 * Waits (up to `waitSeconds`) until the post leaves needs_approval (`decision`) or reaches a final
 * status (`final`), or is rejected or cancelled; answers what it is then, and whether that happened.
 */
export const waitForPost = Effect.fn("waitForPost")(function* (
  actor: Actor,
  id: string,
  until: WaitUntil,
  waitSeconds: number
) {
  if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS)
    return yield* Effect.fail(invalidFields(["waitSeconds"], `waitSeconds is 0-${MAX_WAIT_SECONDS}.`))
  if (!isWellFormedId(id)) return yield* Effect.fail(fail("post_not_found", { postId: id }))
  const repo = yield* PostRepo
  const post = yield* waitFor(
    repo.findById(actor.workspaceId, id),
    (found: Option.Option<Post>) => Option.isNone(found) || settled(found.value, until),
    waitSeconds * 1000
  )
  if (Option.isNone(post)) return yield* Effect.fail(fail("post_not_found", { postId: id }))
  const p = post.value
  return {
    settled: settled(p, until),
    status: p.deletedReason ?? p.status,
    post: p.deletedAt === null ? postView(p) : null
  }
})
