import { Effect, Result } from "effect"
import { Base64Url } from "effect/encoding"
import type { Actor } from "../../../domain/apiKey.ts"
import { invalidFields } from "../../../domain/errors.ts"
import type { PostStatus } from "../../../domain/post.ts"
import { PostRepo } from "../../ports/PostRepo.ts"
import { loadPost } from "../common.ts"
import { latestMetrics } from "../metrics/query.ts"
import { postView } from "./view.ts"

const statuses: ReadonlyArray<PostStatus> = ["needs_approval", "scheduled", "publishing", "published", "failed"]

export interface ListQuery {
  readonly status?: string | undefined
  readonly limit?: string | undefined
  readonly cursor?: string | undefined
}

const encodeCursor = (id: string) => Base64Url.encode(id)
const decodeCursor = (cursor: string) =>
  cursor.length > 64 ? "" : Result.getOrElse(Base64Url.decodeString(cursor), () => "")

export const getPost = Effect.fn("getPost")(function* (actor: Actor, id: string) {
  const post = yield* loadPost(actor, id)
  return { post: postView(post, yield* latestMetrics(actor.workspaceId, [post])) }
})

/** GET /posts: newest first, `limit` 1..100 (default 20), `nextCursor` for the next page. */
export const listPosts = Effect.fn("listPosts")(function* (actor: Actor, query: ListQuery) {
  const bad: Array<string> = []
  // Digits only: Number() would also take "1e2", "0x10" and " 7 ".
  const limit = query.limit === undefined ? 20 : /^[0-9]{1,3}$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) bad.push("limit")
  if (query.status !== undefined && !statuses.includes(query.status as PostStatus)) bad.push("status")
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
  if (after !== undefined && !/^post_[0-9A-Z]{26}$/.test(after)) bad.push("cursor")
  if (bad.length > 0)
    return yield* Effect.fail(
      invalidFields(bad, "limit is 1-100; status is one of " + statuses.join(", ") + "; cursor comes from nextCursor.")
    )
  const page = yield* (yield* PostRepo).list(actor.workspaceId, {
    status: query.status as PostStatus | undefined,
    limit: limit + 1,
    after
  })
  const posts = page.slice(0, limit)
  return {
    posts: posts.map((p) => postView(p)),
    nextCursor: page.length > limit ? encodeCursor(posts[posts.length - 1].id) : null
  }
})
