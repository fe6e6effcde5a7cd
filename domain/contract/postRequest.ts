import { Schema, SchemaTransformation } from "effect"
import { MEDIA_LIFETIME_MS } from "../media.ts"
import { requestLimits } from "../networkRules.ts"
import { type Platform, platforms } from "../platforms.ts"
import { DAY_MS } from "../time.ts"
import { decoderFor, requestParseOptions } from "./issues.ts"
import { ScheduledForInput } from "./planning.ts"

export { requestParseOptions }

// The body of POST /posts (and MCP's create_post): its shape only. Rules that need more than a
// shape (texts, aliases, ids, dates, per-network limits) are domain/postRequest.ts's, over the
// decoded value. Optional top-level fields take null as "not set": agents often send it.

const Str = Schema.String
const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)
const nullable = <S extends Schema.Top>(schema: S) => Schema.optionalKey(Schema.NullOr(schema))
/**
 * An array of strings, capped before its items are looked at: the guard refuses a wrong type or
 * length in one step, whatever the array holds, and the input is kept as it is (no copy). The
 * JSON codec only documents it (OpenAPI, MCP): decode with the schema itself, not toCodecJson.
 */
const cappedStrings = (options: {
  readonly max: number
  readonly min?: number
  readonly message: string
  readonly description: string
}) => {
  const min = options.min ?? 0
  const documented = (
    min > 0
      ? Schema.Array(Str).check(Schema.isMinLength(min), Schema.isMaxLength(options.max))
      : Schema.Array(Str).check(Schema.isMaxLength(options.max))
  ).annotate({
    description: options.description
  })
  return Schema.declare(
    (u: unknown): u is ReadonlyArray<string> =>
      Array.isArray(u) && u.length >= min && u.length <= options.max && u.every((s) => typeof s === "string"),
    {
      message: options.message,
      toCodecJson: () => Schema.link<ReadonlyArray<string>>()(documented, SchemaTransformation.passthrough())
    }
  )
}

export const TiktokPrivacy = Schema.Literals([
  "PUBLIC_TO_EVERYONE",
  "MUTUAL_FOLLOW_FRIENDS",
  "FOLLOWER_OF_CREATOR",
  "SELF_ONLY"
]).annotate({ identifier: "TiktokPrivacy" })
export type TiktokPrivacy = typeof TiktokPrivacy.Type

/** TikTok options beyond `tiktokAiGenerated` (TikTok's own Content Posting API settings). */
export const TiktokOptions = Schema.Struct({
  privacyLevel: optional(
    TiktokPrivacy.annotate({ description: "Who may see the TikTok post; the creator's account must allow it" })
  ),
  brandedContent: optional(Schema.Boolean.annotate({ description: "TikTok branded-content disclosure" })),
  draft: optional(
    Schema.Boolean.annotate({
      description:
        "true: the one video goes to the creator's TikTok inbox as a draft (Upload, scope video.upload) for them to finish and post in the app; privacy, branded content, the AI label and the caption do not apply"
    })
  )
}).annotate({
  identifier: "TiktokOptions",
  description: "TikTok only: privacy level, branded-content disclosure, or a draft to the creator's inbox"
})
export type TiktokOptions = typeof TiktokOptions.Type

export const YoutubePrivacy = Schema.Literals(["public", "unlisted", "private"]).annotate({
  identifier: "YoutubePrivacy"
})
export type YoutubePrivacy = typeof YoutubePrivacy.Type

/** YouTube's video settings (Data API videos.insert snippet and status); the post's text is the description. */
export const YoutubeOptions = Schema.Struct({
  title: optional(
    Str.annotate({ description: "The video's title, 1-100 characters; without one, the text's first line" })
  ),
  privacyStatus: optional(YoutubePrivacy.annotate({ description: "public (the default), unlisted or private" })),
  madeForKids: optional(
    Schema.Boolean.annotate({
      description: "Whether the video is made for kids, as YouTube requires creators to declare (default false)"
    })
  ),
  tags: optional(
    cappedStrings({
      max: 500,
      message: "youtube.tags must be an array of at most 500 tags.",
      description: "The video's tags, 500 characters in all"
    })
  )
}).annotate({
  identifier: "YoutubeOptions",
  description: "YouTube only: the video's title, privacy, made-for-kids declaration and tags"
})
export type YoutubeOptions = typeof YoutubeOptions.Type

/** Pinterest's pin settings: the board (else the account's default board), the pin's link and title. */
export const PinterestOptions = Schema.Struct({
  boardId: optional(
    Str.check(
      Schema.isPattern(/^[A-Za-z0-9_-]{1,64}$/, {
        message: "pinterest.boardId is a board id from GET /accounts/{id}/boards."
      })
    ).annotate({
      description: "A board of the account (GET /accounts/{id}/boards); without one, the account's default board"
    })
  ),
  link: optional(Str.annotate({ description: "Where the pin leads, an http(s) URL" })),
  title: optional(Str.annotate({ description: "The pin's title, at most 100 characters" }))
}).annotate({ identifier: "PinterestOptions", description: "Pinterest only: the board, link and title of the pin" })
export type PinterestOptions = typeof PinterestOptions.Type

/** Instagram's choice of format: a story (media_type STORIES) instead of a feed post, carousel or reel. */
export const InstagramOptions = Schema.Struct({
  story: optional(
    Schema.Boolean.annotate({
      description:
        "true: the post's one image or video goes up as a story (24 hours; video 3-60 s, vertical 9:16 recommended); a story shows no caption and takes no carousel or first comment"
    })
  )
}).annotate({ identifier: "InstagramOptions", description: "Instagram only: publish as a story" })
export type InstagramOptions = typeof InstagramOptions.Type

/** Facebook Pages' choice for a video: a reel (POST /{page}/video_reels) instead of a Page video. */
export const FacebookOptions = Schema.Struct({
  reel: optional(
    Schema.Boolean.annotate({
      description: "true: the post's one video goes up as a reel (3-90 s, vertical 9:16 recommended; 30 a day per Page)"
    })
  )
}).annotate({ identifier: "FacebookOptions", description: "Facebook only: publish the video as a reel" })
export type FacebookOptions = typeof FacebookOptions.Type

export const MastodonVisibility = Schema.Literals(["public", "unlisted", "private", "direct"]).annotate({
  identifier: "MastodonVisibility"
})
export type MastodonVisibility = typeof MastodonVisibility.Type

/** Mastodon's status settings (POST /api/v1/statuses visibility and spoiler_text), for the post and its thread. */
export const MastodonOptions = Schema.Struct({
  visibility: optional(
    MastodonVisibility.annotate({
      description: "public (the default), unlisted (not in public timelines), private (followers only) or direct"
    })
  ),
  contentWarning: optional(
    Str.annotate({
      description:
        "A content warning shown in place of the text until opened (spoiler_text); it counts toward the limit"
    })
  )
}).annotate({
  identifier: "MastodonOptions",
  description: "Mastodon only: the status's visibility and content warning"
})
export type MastodonOptions = typeof MastodonOptions.Type

/** Discord's message settings (Execute Webhook thread_name), for the post only. */
export const DiscordOptions = Schema.Struct({
  threadName: optional(
    Str.annotate({
      description:
        "The forum post's title when the webhook's channel is a forum (thread_name, up to 100 characters); ignored elsewhere by Discord"
    })
  )
}).annotate({ identifier: "DiscordOptions", description: "Discord only: the forum post's title" })
export type DiscordOptions = typeof DiscordOptions.Type

const localDate = Str.annotate({ description: "A day in the location's own time zone, YYYY-MM-DD" })
const localTime = Str.annotate({ description: "A time of day in the location's own time zone, HH:MM (24 hours)" })

export const GoogleBusinessTopic = Schema.Literals(["STANDARD", "EVENT", "OFFER"]).annotate({
  identifier: "GoogleBusinessTopic"
})
export const GoogleBusinessAction = Schema.Literals([
  "BOOK",
  "ORDER",
  "SHOP",
  "LEARN_MORE",
  "SIGN_UP",
  "CALL"
]).annotate({
  identifier: "GoogleBusinessAction"
})

/** Google Business Profile's local post settings (v4 LocalPost topicType, callToAction, event, offer), for the post only. */
export const GoogleBusinessOptions = Schema.Struct({
  topicType: optional(
    GoogleBusinessTopic.annotate({ description: "STANDARD (an update, the default), EVENT or OFFER (both need event)" })
  ),
  languageCode: optional(
    Str.annotate({ description: "The post's language, e.g. en or fr-CA; the server's default when absent" })
  ),
  callToAction: optional(
    Schema.Struct({
      actionType: GoogleBusinessAction,
      url: optional(
        Str.annotate({ description: "Where the button leads, an http(s) URL; none for CALL (the location's phone)" })
      )
    }).annotate({ identifier: "GoogleBusinessCallToAction", description: "A button under the post; not on an OFFER" })
  ),
  event: optional(
    Schema.Struct({
      title: Str.annotate({ description: "The event's or offer's title" }),
      startDate: localDate,
      startTime: optional(localTime),
      endDate: localDate,
      endTime: optional(localTime)
    }).annotate({
      identifier: "GoogleBusinessEvent",
      description: "The event's (or offer's) title and when it runs; times both given or both left out"
    })
  ),
  offer: optional(
    Schema.Struct({
      couponCode: optional(Str.annotate({ description: "The code to use in store or online" })),
      redeemOnlineUrl: optional(Str.annotate({ description: "Where to redeem the offer, an http(s) URL" })),
      termsConditions: optional(Str.annotate({ description: "The offer's terms" }))
    }).annotate({ identifier: "GoogleBusinessOffer", description: "An OFFER's coupon code, redeem link and terms" })
  )
}).annotate({
  identifier: "GoogleBusinessOptions",
  description: "Google Business Profile only: the local post's kind (update, event, offer), button, event and offer"
})
export type GoogleBusinessOptions = typeof GoogleBusinessOptions.Type
export const RedditKind = Schema.Literals(["self", "link", "image"]).annotate({ identifier: "RedditKind" })
export type RedditKind = typeof RedditKind.Type

/** Reddit's submission settings (POST /api/submit sr, title, kind, url, flair_id), for the post only. */
export const RedditOptions = Schema.Struct({
  subreddit: Str.check(
    Schema.isPattern(/^(r\/)?[A-Za-z0-9_]{2,21}$/, {
      message: "reddit.subreddit is a subreddit's name, e.g. typescript or r/typescript."
    })
  ).annotate({
    description:
      "The subreddit the post goes to (its name, with or without r/); required for a Reddit target. Its rules (submission type, flair, title and body requirements) are checked before posting"
  }),
  title: optional(
    Str.annotate({
      description:
        "The post's title, 1-300 characters; without one, the text's first line is the title and the rest of the text the body"
    })
  ),
  kind: optional(
    RedditKind.annotate({
      description:
        "self (a text post), link (reddit.url) or image (the post's one image); without it: image when the post has an image, link when reddit.url is set, else self"
    })
  ),
  url: optional(Str.annotate({ description: "A link post's URL, http(s)" })),
  flairId: optional(
    Str.annotate({
      description:
        "A link flair's id of the subreddit (GET /r/{subreddit}/api/link_flair_v2); some subreddits require one"
    })
  )
}).annotate({
  identifier: "RedditOptions",
  description: "Reddit only: the subreddit, title, kind (self, link, image), link and flair of the post"
})
export type RedditOptions = typeof RedditOptions.Type

/** Each network's own object of a post request, by its field name: the one list a network's option joins. */
export const networkOptionSchemas = {
  tiktok: TiktokOptions,
  youtube: YoutubeOptions,
  pinterest: PinterestOptions,
  facebook: FacebookOptions,
  instagram: InstagramOptions,
  mastodon: MastodonOptions,
  discord: DiscordOptions,
  googleBusiness: GoogleBusinessOptions,
  reddit: RedditOptions
} as const
export type NetworkOptionKey = keyof typeof networkOptionSchemas
export const networkOptionKeys = Object.keys(networkOptionSchemas) as ReadonlyArray<NetworkOptionKey>

/** The request field of each network's object, where it has one: its platform id, but Google Business Profile's is googleBusiness. */
export const networkOptionsField = {
  tiktok: "tiktok",
  youtube: "youtube",
  pinterest: "pinterest",
  facebook: "facebook",
  mastodon: "mastodon",
  instagram: "instagram",
  discord: "discord",
  google_business: "googleBusiness",
  reddit: "reddit"
} as const satisfies Partial<Record<Platform, NetworkOptionKey>>
// Every object of networkOptionSchemas has its platform above (a compile error names the one missing).
const everyOptionHasItsPlatform: Record<NetworkOptionKey, true> = Object.fromEntries(
  Object.values(networkOptionsField).map((key) => [key, true])
) as { [K in (typeof networkOptionsField)[keyof typeof networkOptionsField]]: true }
void everyOptionHasItsPlatform

/** The optional per-network objects of a post request, stored on the post and handed to each network. */
export type NetworkOptions = {
  readonly [K in NetworkOptionKey]?: (typeof networkOptionSchemas)[K]["Type"] | undefined
}

const networkOptionFields = Object.fromEntries(
  networkOptionKeys.map((key) => [key, nullable(networkOptionSchemas[key])])
) as { readonly [K in NetworkOptionKey]: ReturnType<typeof nullable<(typeof networkOptionSchemas)[K]>> }

export const PollRequest = Schema.Struct({
  options: cappedStrings({
    max: requestLimits.pollOptions,
    message: `poll.options must be an array of at most ${requestLimits.pollOptions} choices.`,
    description: "The choices"
  }),
  durationMinutes: Schema.Int.check(Schema.isGreaterThan(0)).annotate({
    description: "How long the poll runs, in minutes"
  }),
  question: nullable(Str.annotate({ description: "LinkedIn only" }))
}).annotate({ identifier: "PollRequest", description: "X or LinkedIn only, and never with media" })

export const CoverRequest = Schema.Union([
  Schema.Struct({ mediaId: Str.annotate({ description: "An uploaded image" }) }),
  Schema.Struct({
    offsetMs: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)).annotate({
      description: "A frame of the video, in milliseconds from its start"
    })
  })
]).annotate({ identifier: "CoverRequest", description: "Video cover: {mediaId} or {offsetMs}" })

/** What one network gets instead of the post's own content, media, thread or first comment. */
export const ContentOverride = Schema.Struct({
  content: optional(Str.annotate({ description: "This network's text instead of content" })),
  mediaIds: optional(
    cappedStrings({
      max: requestLimits.media,
      message: `An override's mediaIds must be an array of at most ${requestLimits.media} media ids.`,
      description: "This network's media instead of mediaIds; [] for none"
    })
  ),
  thread: optional(
    cappedStrings({
      max: requestLimits.threadReplies,
      message: `An override's thread must be an array of at most ${requestLimits.threadReplies} non-empty texts.`,
      description: "This network's thread instead of thread; [] for none"
    })
  ),
  firstComment: optional(
    Schema.NullOr(Str).annotate({ description: "This network's first comment instead of firstComment; null for none" })
  )
}).annotate({
  identifier: "ContentOverride",
  description: "Fields given replace the post's own on this network; fields left out keep them"
})
export type ContentOverride = typeof ContentOverride.Type

const overrideFor = optional(ContentOverride)
/** Per-network content, keyed by platform: each target publishes the post's fields with its network's override applied. */
export const Overrides = Schema.Struct(
  // One optional field per network, from the networks' own list.
  Object.fromEntries(platforms.map((p) => [p, overrideFor])) as { readonly [P in Platform]: typeof overrideFor }
).annotate({
  identifier: "Overrides",
  description:
    "Per-network content, keyed by platform, e.g. {x: {content: short}, linkedin: {content: long}}. Each target is checked by its network's rules on its own final content"
})
export type Overrides = typeof Overrides.Type

const time = "ISO 8601 with a timezone offset, e.g. 2026-12-01T09:00:00+09:00 or 2026-12-01T00:00:00Z"

/** The fields of a create-post request, for hosts that add their own (MCP's idempotencyKey). */
export const createPostFields = {
  accountIds: cappedStrings({
    min: 1,
    max: requestLimits.accounts,
    message: `accountIds must be an array of 1-${requestLimits.accounts} account ids.`,
    description: "Connected account ids (GET /accounts); one target per account, each with its own status"
  }),
  content: nullable(Str.annotate({ description: "The post text" })),
  mediaIds: nullable(
    cappedStrings({
      max: requestLimits.media,
      message: `mediaIds must be an array of at most ${requestLimits.media} media ids.`,
      description: `Uploaded media ids; several make a carousel in this order. Uploads expire after ${MEDIA_LIFETIME_MS / DAY_MS} days`
    })
  ),
  mediaId: nullable(Str.annotate({ description: "A single media id, instead of mediaIds" })),
  dryRun: nullable(
    Schema.Boolean.annotate({
      description: "true: only validate and show what would be posted. Nothing is stored, sent or counted"
    })
  ),
  scheduledFor: nullable(
    ScheduledForInput.annotate({
      description: `When to publish: ${time}, or a local time {local, timeZone}. Future, under a year ahead. Omit to post now`
    })
  ),
  queue: nullable(
    Schema.Boolean.annotate({
      description:
        "true: take the next slot free for every target in their schedule's queue (GET /schedules) instead of scheduledFor"
    })
  ),
  requireApproval: nullable(
    Schema.Boolean.annotate({
      description: "true: wait for a person's approval. false cannot bypass an asks-first key"
    })
  ),
  firstComment: nullable(
    Str.annotate({
      description: "A reply from the same account about 10 seconds after the post is live (put links here)"
    })
  ),
  thread: nullable(
    cappedStrings({
      max: requestLimits.threadReplies,
      message: `thread must be an array of at most ${requestLimits.threadReplies} non-empty texts.`,
      description: "Follow-up posts for X, Threads and Bluesky; thread[0] is the first reply"
    })
  ),
  firstReply: nullable(Str.annotate({ description: "Alias for a one-item thread; not together with thread" })),
  poll: nullable(PollRequest),
  cover: nullable(CoverRequest),
  tiktokAiGenerated: nullable(Schema.Boolean.annotate({ description: "TikTok only: label the post as AI-generated" })),
  ...networkOptionFields,
  overrides: nullable(Overrides)
}

/** POST /posts's body. */
export const CreatePostRequest = Schema.Struct(createPostFields).annotate({ identifier: "CreatePostRequest" })
export type CreatePostBody = typeof CreatePostRequest.Type

/** The one decoder of that body (HTTP's router and fast path, MCP): shape only, every field named. */
export const decodeCreatePostBody = decoderFor(CreatePostRequest, requestParseOptions, { whole: "body" })

// An edit names only what changes; the time is reschedule's and the queue's, so they are not here.
const {
  accountIds: createAccountIds,
  queue: _queue,
  scheduledFor: _at,
  requireApproval: _ra,
  ...editable
} = createPostFields

/** The fields of an edit (PATCH /posts/{id}, MCP's update_post). */
export const updatePostFields = {
  ...editable,
  accountIds: optional(
    createAccountIds.annotate({
      description: "The post's accounts after the edit: targets added or removed. Omit to keep them"
    })
  )
}

/** PATCH /posts/{id}'s body: the create's fields, each optional; a field given replaces the post's, null clears it. */
export const UpdatePostRequest = Schema.Struct(updatePostFields).annotate({
  identifier: "UpdatePostRequest",
  description:
    "The create's fields, each optional: a field given replaces the post's (null clears it), one left out keeps it. dryRun: true shows what would change, per target"
})
export type UpdatePostBody = typeof UpdatePostRequest.Type
