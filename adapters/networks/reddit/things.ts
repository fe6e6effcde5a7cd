import { Schema } from "effect"
import { decodeReply } from "../shared/http.ts"

/** Reddit's answers Herald reads (reddit.com/dev/api), decoded; fields Herald does not use are left out. */

const Str = Schema.String
const opt = <S extends Schema.Top>(s: S) => Schema.optional(Schema.NullOr(s))

const Me = Schema.Struct({
  id: Str,
  name: Str,
  icon_img: opt(Str),
  subreddit: opt(Schema.Struct({ title: opt(Str), display_name_prefixed: opt(Str) }))
})
export type RedditMe = typeof Me.Type

const About = Schema.Struct({
  data: Schema.Struct({
    display_name: Str,
    subreddit_type: opt(Str),
    submission_type: opt(Str),
    allow_images: opt(Schema.Boolean),
    user_is_banned: opt(Schema.Boolean),
    user_is_contributor: opt(Schema.Boolean),
    user_is_moderator: opt(Schema.Boolean)
  })
})
export type SubredditAbout = (typeof About.Type)["data"]

const Requirements = Schema.Struct({
  is_flair_required: opt(Schema.Boolean),
  title_text_min_length: opt(Schema.Number),
  title_text_max_length: opt(Schema.Number),
  title_required_strings: opt(Schema.Array(Str)),
  title_blacklisted_strings: opt(Schema.Array(Str)),
  body_restriction_policy: opt(Str),
  body_text_min_length: opt(Schema.Number),
  body_text_max_length: opt(Schema.Number),
  body_blacklisted_strings: opt(Schema.Array(Str)),
  domain_blacklist: opt(Schema.Array(Str)),
  domain_whitelist: opt(Schema.Array(Str))
})
export type PostRequirements = typeof Requirements.Type

const Flairs = Schema.Array(Schema.Struct({ id: Str, text: opt(Str) }))
export type LinkFlair = (typeof Flairs.Type)[number]

/** `{json: {errors: [[code, message, field]], data}}`: api_type=json answers, a refusal inside a 200. */
const ApiErrors = Schema.Array(Schema.Array(Schema.NullOr(Str)))
const Submitted = Schema.Struct({
  json: Schema.Struct({
    errors: ApiErrors,
    data: Schema.optional(
      Schema.Struct({ id: Schema.optional(Str), name: Schema.optional(Str), url: Schema.optional(Str) })
    )
  })
})
export type SubmitAnswer = typeof Submitted.Type

const Commented = Schema.Struct({
  json: Schema.Struct({
    errors: ApiErrors,
    data: Schema.optional(
      Schema.Struct({
        things: Schema.Array(Schema.Struct({ data: Schema.Struct({ id: Str, name: Str, permalink: opt(Str) }) }))
      })
    )
  })
})
export type CommentAnswer = typeof Commented.Type

/** A post (t3) or comment (t1) of a listing. */
const Thing = Schema.Struct({
  kind: Str,
  data: Schema.Struct({
    id: Str,
    name: Str,
    title: opt(Str),
    subreddit: opt(Str),
    created_utc: opt(Schema.Number),
    permalink: opt(Str),
    link_id: opt(Str),
    parent_id: opt(Str),
    body: opt(Str),
    score: opt(Schema.Number),
    num_comments: opt(Schema.Number),
    upvote_ratio: opt(Schema.Number),
    removed_by_category: opt(Str)
  })
})
export type RedditThing = (typeof Thing.Type)["data"]
const Listing = Schema.Struct({ data: Schema.Struct({ children: Schema.Array(Thing) }) })

/** A subreddit (t5) of the account's /subreddits/mine listings. */
const MySubreddits = Schema.Struct({
  data: Schema.Struct({
    after: opt(Str),
    children: Schema.Array(
      Schema.Struct({
        data: Schema.Struct({
          display_name: Str,
          display_name_prefixed: opt(Str),
          title: opt(Str),
          public_description: opt(Str),
          subreddit_type: opt(Str)
        })
      })
    )
  })
})
export type MySubredditsPage = typeof MySubreddits.Type
export type MySubreddit = MySubredditsPage["data"]["children"][number]["data"]

const Lease = Schema.Struct({
  args: Schema.Struct({ action: Str, fields: Schema.Array(Schema.Struct({ name: Str, value: Str })) }),
  asset: Schema.Struct({ asset_id: Str })
})
export type UploadLease = typeof Lease.Type

export const decodeMe = decodeReply(Me)
export const decodeAbout = decodeReply(About)
export const decodeRequirements = decodeReply(Requirements)
export const decodeFlairs = decodeReply(Flairs)
export const decodeSubmitted = decodeReply(Submitted)
export const decodeCommented = decodeReply(Commented)
export const decodeListing = decodeReply(Listing)
export const decodeLease = decodeReply(Lease)
export const decodeMySubreddits = decodeReply(MySubreddits)

/** A post's page on reddit.com from its permalink (a path) or the URL Reddit gave. */
export const pageUrl = (permalink: string | null | undefined) =>
  permalink == null ? null : permalink.startsWith("http") ? permalink : `https://www.reddit.com${permalink}`
