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
  constructor(readonly code: string, readonly message: string, readonly retryable: boolean) {}
}

export interface Publisher {
  readonly platform: Platform
  readonly publish: (request: PublishRequest) => Effect.Effect<Published, PublishError>
}

export interface PublishersShape {
  readonly get: (platform: Platform) => Option.Option<Publisher>
}

export class Publishers extends Context.Service<Publishers, PublishersShape>()("herald/Publishers") {}
