import { Context, type Effect } from "effect"
import type { Post } from "../../domain/post.ts"
import type { Job } from "./JobQueue.ts"

export interface NewPost {
  readonly post: Post
  /** Its publish jobs (none while it waits for approval). */
  readonly jobs: ReadonlyArray<Job>
  /** The month (`YYYY-MM`, UTC) the post counts in, and the plan's monthly cap (null: uncapped). */
  readonly usage: { readonly month: string; readonly limit: number | null }
}

export type CreateOutcome =
  /**
   * `used`: the month's count with this post, when the plan is capped; null when it is not (counting
   * an uncapped post does not read the month's total, so uncapped creates never wait on each other).
   */
  | { readonly _tag: "Created"; readonly used: number | null }
  /** The month already holds `limit` posts: nothing was stored. */
  | { readonly _tag: "OverCap" }

export interface PostCreatorShape {
  /**
   * Stores a new post with its jobs and counts it in its month, as one atomic write: all of it or
   * none. Concurrent creates at the cap never take the month past it. Inside `Store.transaction`
   * it joins the transaction. An adapter may write concurrent creates together (the SQL one batches
   * uncapped creates that wait for a writer), but each post's outcome is its own.
   */
  readonly create: (entry: NewPost) => Effect.Effect<CreateOutcome>
}

/**
 * The write of POST /posts as one port call, so an adapter can make it one round trip (the SQL
 * adapter sends a single statement) instead of a transaction of several.
 */
export class PostCreator extends Context.Service<PostCreator, PostCreatorShape>()("herald/PostCreator") {}
