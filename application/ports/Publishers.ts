import { Context, type Effect, type Option, Schema } from "effect"
import type { ErrorCode } from "../../domain/errors.ts"
import type { Account } from "../../domain/account.ts"
import type { RawFigures } from "../../domain/metrics.ts"
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

const message = Schema.String.annotate({ description: "The network's own words, for the person" })
const retryAfterMs = Schema.optional(Schema.Number).annotate({ description: "When to try again, from the network" })

/** The network throttled the call (429 or its own code): wait `retryAfterMs`; not counted as a failure. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", { message, retryAfterMs }) {
  get code(): ErrorCode {
    return "rate_limited"
  }
  get retryable() {
    return true
  }
}

/** The network refused the credentials (401, an expired or unknown token): renew them and try once more. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", { message }) {
  get code(): ErrorCode {
    return "account_needs_reconnection"
  }
  get retryable() {
    return false
  }
}

/** The network says the grant is gone for good (revoked, a scope withdrawn, the account suspended): reconnect. */
export class Revoked extends Schema.TaggedError<Revoked>()("Revoked", { message }) {
  get code(): ErrorCode {
    return "account_needs_reconnection"
  }
  get retryable() {
    return false
  }
}

/** The network refused the post for good (its rules, a duplicate, a bad file): `code` from the catalogue, its own code beside. */
export class Refused extends Schema.TaggedError<Refused>()("Refused", {
  code: Schema.String,
  message,
  networkCode: Schema.optional(Schema.String).annotate({ description: "The network's own error code, for logs" })
}) {
  get retryable() {
    return false
  }
}

/** The network could not take the call now (down, timed out before anything was sent, still busy): try again later. */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  code: Schema.optional(Schema.String).annotate({ description: "upstream_unavailable unless the network says more" }),
  message,
  retryAfterMs
}) {
  get retryable() {
    return true
  }
}

/** The call may or may not have reached the network (no answer after sending): ask it before sending again. */
export class OutcomeUnknown extends Schema.TaggedError<OutcomeUnknown>()("OutcomeUnknown", { message }) {
  get code(): ErrorCode {
    return "upstream_unavailable"
  }
  /** Not blindly: the pipeline keeps the checkpoint and asks the network (`recover`) before any new call. */
  get retryable() {
    return false
  }
}

export const PublishErrorReason = Schema.Union([
  RateLimited,
  Unauthorized,
  Revoked,
  Refused,
  Unavailable,
  OutcomeUnknown
])
export type PublishErrorReason = typeof PublishErrorReason.Type

/**
 * A network's refusal of a call, for one reason callers branch on; `code`, `message`, `retryable`
 * and `retryAfterMs` come from the reason. Only OutcomeUnknown may have reached the network; a retryable
 * reason is safe to try again as it is.
 */
export class PublishError extends Schema.TaggedError<PublishError>()("PublishError", { reason: PublishErrorReason }) {
  override get message(): string {
    return this.reason.message
  }
  /** A catalogue code: upstream_rejected, duplicate_content, upstream_unavailable... */
  get code(): string {
    return this.reason._tag === "Unavailable" ? (this.reason.code ?? "upstream_unavailable") : this.reason.code
  }
  get retryable(): boolean {
    return this.reason.retryable
  }
  get retryAfterMs(): number | undefined {
    return this.reason._tag === "RateLimited" || this.reason._tag === "Unavailable"
      ? this.reason.retryAfterMs
      : undefined
  }

  static rateLimited(fields: { readonly message: string; readonly retryAfterMs?: number | undefined }) {
    return new PublishError({ reason: new RateLimited(fields) })
  }
  static unauthorized(fields: { readonly message: string }) {
    return new PublishError({ reason: new Unauthorized(fields) })
  }
  static revoked(fields: { readonly message: string }) {
    return new PublishError({ reason: new Revoked(fields) })
  }
  static refused(fields: {
    readonly code: string
    readonly message: string
    readonly networkCode?: string | undefined
  }) {
    return new PublishError({ reason: new Refused(fields) })
  }
  static unavailable(fields: {
    readonly message: string
    readonly code?: string | undefined
    readonly retryAfterMs?: number | undefined
  }) {
    return new PublishError({ reason: new Unavailable(fields) })
  }
  static outcomeUnknown(fields: { readonly message: string }) {
    return new PublishError({ reason: new OutcomeUnknown(fields) })
  }
}

/** One published item of a target to remove from its network. */
export interface UnpublishRequest {
  readonly account: Account
  /** The account's credentials, fresh (null for networks that need none). */
  readonly credentials: NetworkCredentials | null
  /** The item's id on the network, as publishing recorded it. */
  readonly externalId: string
  /** The post itself, a reply of its thread, or its first comment (some networks remove comments another way). */
  readonly kind: "post" | "reply" | "comment"
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
 * attempt asks `recover`. Networks without such a handle return one naming when the attempt began, for
 * `recover` to look through the account's recent posts from; without `recover` the outcome is unknown and a person decides.
 * `publish` with a handle from an earlier `Processing` outcome continues from there.
 */
export interface Publisher {
  readonly platform: Platform
  readonly prepare: (request: PublishRequest) => Effect.Effect<string, PublishError>
  /** Posts. `handle` is what `prepare` (or an earlier Processing outcome) gave; absent without one. */
  readonly publish: (request: PublishRequest, handle?: string) => Effect.Effect<PublishOutcome, PublishError>
  readonly recover?: (request: PublishRequest, handle: string | null) => Effect.Effect<Recovery, PublishError>
  /**
   * Removes one published item. An item the network no longer has counts as removed (so a repeat after
   * a lost answer is harmless); any other failure is a PublishError. Absent: the network's API cannot
   * remove posts (Instagram, TikTok), and a take-down answers unpublish_unsupported.
   */
  readonly unpublish?: ((request: UnpublishRequest) => Effect.Effect<void, PublishError>) | undefined
  /** Dry-run warnings about posting `post` to `account` at `dueAt` beyond the rules table: quotas the network reports or Herald counted. */
  readonly advise?:
    | ((account: Account, dueAt: number, post: AdvisedPost) => Effect.Effect<ReadonlyArray<string>>)
    | undefined
  /** Reads published posts' figures, for networks with an analytics API (absent: Herald reads none). */
  readonly metrics?: MetricsCapability | undefined
  /** Where the account's posts can go, for networks that post to boards (Pinterest). */
  readonly boards?:
    | ((account: Account, credentials: NetworkCredentials | null) => Effect.Effect<ReadonlyArray<Board>, PublishError>)
    | undefined
}

/** Posts of one account whose figures are read in one call. */
export interface MetricsRequest {
  readonly account: Account
  readonly credentials: NetworkCredentials | null
  readonly posts: ReadonlyArray<{ readonly externalId: string; readonly publishedAt: number }>
}

/**
 * What a network said about an account's figures: the posts it gave figures for (a post missing was
 * taken down), or that the account's grant or access tier does not offer them (`reason`, for the person).
 */
export type MetricsAnswer =
  | { readonly _tag: "Read"; readonly figures: ReadonlyMap<string, RawFigures> }
  | { readonly _tag: "NotOffered"; readonly reason: string }

export interface MetricsCapability {
  /** Most posts one call reads (the network's own cap on ids per request). */
  readonly batch: number
  readonly read: (request: MetricsRequest) => Effect.Effect<MetricsAnswer, PublishError>
}

/** What a dry run tells a network of the post it advises on: the target's final media and the post's per-network objects. */
export interface AdvisedPost {
  readonly media: ReadonlyArray<Media>
  readonly options: NetworkOptions
  /** The target's final texts, for limits only the network knows (a Mastodon instance's own). */
  readonly text?:
    | { readonly content: string; readonly thread: ReadonlyArray<string>; readonly firstComment: string | null }
    | undefined
  /** The account's credentials, read (renewed if need be) only when run: for advice the network must be asked for (a subreddit's rules). */
  readonly credentials?: Effect.Effect<NetworkCredentials | null> | undefined
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
