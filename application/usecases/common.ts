import { Clock, Effect, Option, Result } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail, type ErrorCode, type HeraldError } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import type { Post } from "../../domain/post.ts"
import { isVisible } from "../../domain/post.ts"
import { PostRepo } from "../ports/PostRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"

export const now = Clock.currentTimeMillis

/** Lifts a domain Result into an Effect failing with the domain error. */
export const fromResult = <A>(result: Result.Result<A, HeraldError>): Effect.Effect<A, HeraldError> =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(result.failure)

/** Refuses keys: the action needs a signed-in person. */
export const requirePerson = (actor: Actor): Effect.Effect<Extract<Actor, { kind: "person" }>, HeraldError> =>
  actor.kind === "person" ? Effect.succeed(actor) : Effect.fail(fail("approval_requires_human"))

/**
 * Approving and making keys need a claimed workspace: a sign-in claims it (signin.ts), so this only
 * refuses a session older than that rule, kept for an unclaimed workspace (README "Security").
 */
export const requireClaimed = Effect.fnUntraced(function* (workspaceId: string) {
  const found = yield* (yield* WorkspaceRepo).findById(workspaceId)
  if (Option.isSome(found) && found.value.claimed) return
  return yield* Effect.fail(
    fail(
      "claim_required",
      { workspaceId },
      "This workspace is not claimed yet: nothing is approved and no key is made before its owner claims it."
    )
  )
})

/** A key may act only on posts it created; a person may act on any post of the workspace. */
export const requireOwnPost = (actor: Actor, post: Post, code: ErrorCode): Effect.Effect<void, HeraldError> =>
  actor.kind === "key" && !(post.createdBy.kind === "key" && post.createdBy.id === actor.keyId)
    ? Effect.fail(fail(code, { postId: post.id }))
    : Effect.void

/** A visible post of the caller's workspace, or post_not_found. */
export const loadPost = Effect.fnUntraced(function* (actor: Actor, id: string) {
  if (!isWellFormedId(id)) return yield* Effect.fail(fail("post_not_found", { postId: id }))
  const posts = yield* PostRepo
  const found = yield* posts.findById(actor.workspaceId, id)
  if (Option.isSome(found) && isVisible(found.value)) return found.value
  return yield* Effect.fail(fail("post_not_found", { postId: id }))
})

export const rateLimited = (retryAfterMs: number): HeraldError =>
  fail("rate_limited", { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) })

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        )
      : v
  )
