import { Context, type Effect, type Option } from "effect"
import type { Account } from "../../domain/account.ts"
import type { Media } from "../../domain/media.ts"
import type { Cover, Poll } from "../../domain/post.ts"
import type { Platform } from "../../domain/platforms.ts"

/** One post as a network receives it. */
export interface PublishRequest {
  readonly account: Account
  readonly postId: string
  readonly content: string
  readonly media: ReadonlyArray<Media>
  readonly poll: Poll | null
  readonly cover: Cover | null
  /** The cover's upload when the cover is a media id. */
  readonly coverMedia?: Media | null
  readonly tiktokAiGenerated: boolean
  /** Set for thread replies and first comments: the network id of the post replied to. */
  readonly replyTo: { readonly rootId: string; readonly parentId: string } | null
}

export interface Published {
  readonly externalId: string
  readonly url: string | null
}

/** A network's refusal; `code` is a catalogue code (upstream_rejected, duplicate_content...). */
export class PublishError {
  readonly _tag = "PublishError"
  readonly code: string
  readonly message: string
  readonly retryable: boolean
  /** The network's Retry-After, when it gave one. */
  readonly retryAfterMs?: number
  constructor(code: string, message: string, retryable: boolean, retryAfterMs?: number) {
    this.code = code
    this.message = message
    this.retryable = retryable
    this.retryAfterMs = retryAfterMs
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
 */
export interface Publisher {
  readonly platform: Platform
  readonly prepare?: (request: PublishRequest) => Effect.Effect<string, PublishError>
  /** Posts. `handle` is what `prepare` returned (absent when the network has no prepare step). */
  readonly publish: (request: PublishRequest, handle?: string) => Effect.Effect<Published, PublishError>
  readonly recover?: (request: PublishRequest, handle: string | null) => Effect.Effect<Recovery, PublishError>
}

export interface PublishersShape {
  readonly get: (platform: Platform) => Option.Option<Publisher>
}

export class Publishers extends Context.Service<Publishers, PublishersShape>()("herald/Publishers") {}
