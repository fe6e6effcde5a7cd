import { Context, type Effect } from "effect"
import type { HeraldEvent } from "../../domain/events.ts"
import type { Post } from "../../domain/post.ts"
import type { IdempotencyRecord } from "./IdempotencyStore.ts"
import type { Job } from "./JobQueue.ts"

export interface NewPost {
  readonly post: Post
  /** Its publish jobs (none while it waits for approval). */
  readonly jobs: ReadonlyArray<Job>
  /** The month (`YYYY-MM`, UTC) the post counts in, and the plan's monthly cap (null: uncapped). */
  readonly usage: { readonly month: string; readonly limit: number | null }
  /**
   * The request's `Idempotency-Key`, claimed for this post (`postId` is the post's id) in the same
   * atomic write; absent without a key. A key held by a live record stores nothing (`KeyHeld`).
   */
  readonly claim?: IdempotencyRecord | undefined
  /** The post's events (post.created, ...), written with it: stored only if the post is. */
  readonly events?: ReadonlyArray<HeraldEvent> | undefined
  /** Written with the post only when it is the one that brings the month to its cap (usage.limit_reached). */
  readonly atLimit?: HeraldEvent | undefined
}

export type CreateOutcome =
  /**
   * `used`: the month's count with this post, when the plan is capped; null when it is not (counting
   * an uncapped post does not read the month's total, so uncapped creates never wait on each other).
   */
  | { readonly _tag: "Created"; readonly used: number | null }
  /** The month already holds `limit` posts: nothing was stored (nor the key claimed). */
  | { readonly _tag: "OverCap" }
  /** The key is held by this live record (an earlier request's): nothing was stored. */
  | { readonly _tag: "KeyHeld"; readonly holder: IdempotencyRecord }

export interface PostCreatorShape {
  /**
   * Stores a new post with its jobs, counts it in its month and claims its idempotency key, as one
   * atomic write: all of it or none. Concurrent creates at the cap never take the month past it; of
   * concurrent creates with one key, exactly one is stored. Inside `Store.transaction`
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
