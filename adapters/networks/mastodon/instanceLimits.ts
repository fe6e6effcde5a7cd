import { Schema } from "effect"

// An instance's own limits (GET /api/v2/instance, or v1 on older servers and forks), read as Herald uses them.

const Str = Schema.String
const optional = Schema.optional
const Int = Schema.Number
/** GET /api/v2/instance's `configuration`, each part optional: older instances and forks leave some out. */
export const InstanceReply = Schema.Struct({
  domain: optional(Str),
  /** Pleroma's, Akkoma's and glitch-soc's own field, on GET /api/v1/instance. */
  max_toot_chars: optional(Int),
  configuration: optional(
    Schema.Struct({
      statuses: optional(
        Schema.Struct({
          max_characters: optional(Int),
          max_media_attachments: optional(Int),
          characters_reserved_per_url: optional(Int)
        })
      ),
      media_attachments: optional(
        Schema.Struct({
          supported_mime_types: optional(Schema.Array(Str)),
          image_size_limit: optional(Int),
          video_size_limit: optional(Int)
        })
      ),
      polls: optional(
        Schema.Struct({
          max_options: optional(Int),
          max_characters_per_option: optional(Int),
          min_expiration: optional(Int),
          max_expiration: optional(Int)
        })
      )
    })
  )
})

/** What an instance takes, from its own configuration, Mastodon's defaults where it says nothing. */
export interface InstanceLimits {
  readonly maxCharacters: number
  readonly maxMediaAttachments: number
  readonly charactersPerUrl: number
  readonly supportedMimeTypes: ReadonlyArray<string> | null
  readonly imageSizeLimit: number | null
  readonly videoSizeLimit: number | null
  readonly poll: {
    readonly maxOptions: number
    readonly maxCharactersPerOption: number
    readonly minExpiration: number
    readonly maxExpiration: number
  }
}

/** Mastodon's own defaults (config/initializers and app/validators), for instances that do not publish theirs. */
export const defaultLimits: InstanceLimits = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersPerUrl: 23,
  supportedMimeTypes: null,
  imageSizeLimit: null,
  videoSizeLimit: null,
  poll: { maxOptions: 4, maxCharactersPerOption: 50, minExpiration: 300, maxExpiration: 2_629_746 }
}

export const limitsOf = (reply: typeof InstanceReply.Type): InstanceLimits => {
  const c = reply.configuration
  return {
    maxCharacters: c?.statuses?.max_characters ?? reply.max_toot_chars ?? defaultLimits.maxCharacters,
    maxMediaAttachments: c?.statuses?.max_media_attachments ?? defaultLimits.maxMediaAttachments,
    charactersPerUrl: c?.statuses?.characters_reserved_per_url ?? defaultLimits.charactersPerUrl,
    supportedMimeTypes: c?.media_attachments?.supported_mime_types ?? null,
    imageSizeLimit: c?.media_attachments?.image_size_limit ?? null,
    videoSizeLimit: c?.media_attachments?.video_size_limit ?? null,
    poll: {
      maxOptions: c?.polls?.max_options ?? defaultLimits.poll.maxOptions,
      maxCharactersPerOption: c?.polls?.max_characters_per_option ?? defaultLimits.poll.maxCharactersPerOption,
      minExpiration: c?.polls?.min_expiration ?? defaultLimits.poll.minExpiration,
      maxExpiration: c?.polls?.max_expiration ?? defaultLimits.poll.maxExpiration
    }
  }
}
