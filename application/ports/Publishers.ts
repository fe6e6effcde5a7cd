import { Context, type Effect, type Option } from "effect"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import type { Cover, Poll } from "../../domain/post.ts"
import type { Platform } from "../../domain/platforms.ts"
import type { NetworkOptions } from "../../domain/contract/postRequest.ts"
import type { NetworkCredentials } from "./Connectors.ts"

/** One post as a network receives it. */
export interface PublishRequest {
  readonly account: Account
  /** The account's credentials, fresh (null for networks that need none, like the sandbox). */
  readonly credentials: NetworkCredentials | null
  readonly postId: string
  readonly content: string
  readonly media: ReadonlyArray<Media>
  readonly poll: Poll | null
  readonly cover: Cover | null
  /** The cover's upload when the cover is a media id. */
  readonly coverMedia?: Media | null
  readonly tiktokAiGenerated: boolean
  /** The post's per-network objects (tiktok, youtube, pinterest, facebook); absent on replies and comments. */
  readonly options?: NetworkOptions | undefined
  /** Set for thread replies and first comments: the network id of the post replied to. */
  readonly replyTo: { readonly rootId: string; readonly parentId: string } | null
}

export interface Published {
  readonly externalId: string
  readonly url: string | null
}

/**
 * What a publish call achieved: the post is live, or the network is still processing (a video, a
 * container) and Herald should come back after `checkAfterMs` with `handle`, which says how far it
 * got. The worker is free meanwhile; the handle is stored as the job's checkpoint.
 */
export type PublishOutcome =
  | { readonly _tag: "Published"; readonly published: Published }
  | { readonly _tag: "Processing"; readonly handle: string; readonly checkAfterMs: number }

export interface PublishErrorOptions {
  /** A catalogue code: upstream_rejected, duplicate_content, upstream_unavailable... */
  readonly code: string
  /** The network's own words, for the person. */
  readonly message: string
  readonly retryable: boolean
  /** When to try again, from the network (Retry-After, a rate limit's reset). */
  readonly retryAfterMs?: number | undefined
  /** The network throttled the call (429 or its own code): wait `retryAfterMs`, not counted as a failure. */
  readonly rateLimited?: boolean | undefined
  /** The network refused the credentials (401): renew them and try once more, else reconnect. */
  readonly unauthorized?: boolean | undefined
  /** The network says the grant is gone for good (revoked, account suspended): reconnect. */
  readonly revoked?: boolean | undefined
}

/** A network's refusal; nothing was published by the call that failed. */
export class PublishError {
  readonly _tag = "PublishError"
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  readonly retryAfterMs: number | undefined
  readonly rateLimited: boolean
  readonly unauthorized: boolean
  readonly revoked: boolean
  constructor(options: PublishErrorOptions) {
    this.code = options.code
    this.message = options.message
    this.retryable = options.retryable
    this.retryAfterMs = options.retryAfterMs
    this.rateLimited = options.rateLimited === true
    this.unauthorized = options.unauthorized === true
    this.revoked = options.revoked === true
  }
}

/** What the network says about an attempt whose outcome was lost. */
export type Recovery =
  | { readonly _tag: "Published"; readonly published: Published }
  | { readonly _tag: "NotPublished" }
  | { readonly _tag: "Unknown" }

/**
 * One network. Publishing is two steps so that a crash between the call and the record never makes
 * Herald post twice: `prepare` returns a handle the network can be asked about later (Bluesky: a
 * record key chosen up front; YouTube: the resumable session URI; TikTok: the publish_id;
 * Instagram/Threads: the container id); Herald stores it before calling `publish`, and after a lost
 * attempt asks `recover`. Networks without such a handle omit `prepare` and have `recover` look
 * through the account's recent posts; without `recover` the outcome is unknown and a person decides.
 * `publish` with a handle from an earlier `Processing` outcome continues from there.
 */
export interface Publisher {
  readonly platform: Platform
  readonly prepare?: (request: PublishRequest) => Effect.Effect<string, PublishError>
  /** Posts. `handle` is what `prepare` (or an earlier Processing outcome) gave; absent without one. */
  readonly publish: (request: PublishRequest, handle?: string) => Effect.Effect<PublishOutcome, PublishError>
  readonly recover?: (request: PublishRequest, handle: string | null) => Effect.Effect<Recovery, PublishError>
  /** Dry-run warnings about posting `post` to `account` at `dueAt` beyond the rules table: quotas the network reports or Herald counted. */
  readonly advise?:
    | ((account: Account, dueAt: number, post: AdvisedPost) => Effect.Effect<ReadonlyArray<string>>)
    | undefined
  /** Where the account's posts can go, for networks that post to boards (Pinterest). */
  readonly boards?:
    | ((account: Account, credentials: NetworkCredentials | null) => Effect.Effect<ReadonlyArray<Board>, PublishError>)
    | undefined
}

/** What a dry run tells a network of the post it advises on: the target's final media and the post's per-network objects. */
export interface AdvisedPost {
  readonly media: ReadonlyArray<Media>
  readonly options: NetworkOptions
}

/** A board of an account (Pinterest): a post's `pinterest.boardId`. */
export interface Board {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly privacy: string | null
}

export interface PublishersShape {
  readonly get: (platform: Platform) => Option.Option<Publisher>
}

export class Publishers extends Context.Service<Publishers, PublishersShape>()("herald/Publishers") {}

/** A publish outcome for a post that is live. */
export const published = (externalId: string, url: string | null): PublishOutcome => ({
  _tag: "Published",
  published: { externalId, url }
})
