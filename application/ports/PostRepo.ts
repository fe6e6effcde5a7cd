import { Context, type Effect, type Option } from "effect"
import type { Post, PostStatus } from "../../domain/post.ts"

export interface PostListQuery {
  readonly status?: PostStatus | undefined
  readonly limit: number
  /** Opaque position from a previous page: the last post id seen. */
  readonly after?: string | undefined
}

export interface PostRepoShape {
  readonly insert: (post: Post) => Effect.Effect<void>
  /** A post of the workspace, including cancelled and rejected ones (callers hide those). */
  readonly findById: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Post>>
  /** Visible posts, newest first (ids sort by creation time). */
  readonly list: (workspaceId: string, query: PostListQuery) => Effect.Effect<ReadonlyArray<Post>>
  /** Replaces a post and its targets. */
  readonly update: (post: Post) => Effect.Effect<void>
  /** The posts found among `keys` (each read within its workspace), in no particular order: one read for a batch. */
  readonly findMany: (keys: ReadonlyArray<PostKey>) => Effect.Effect<ReadonlyArray<Post>>
  /** Replaces several posts and their targets at once (`update` for a batch). */
  readonly updateMany: (posts: ReadonlyArray<Post>) => Effect.Effect<void>
}

export interface PostKey {
  readonly workspaceId: string
  readonly id: string
}

export class PostRepo extends Context.Service<PostRepo, PostRepoShape>()("herald/PostRepo") {}
