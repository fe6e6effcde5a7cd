import { Option, Schema } from "effect"

/**
 * How far one publish attempt got, stored as the job's checkpoint. The publish_id TikTok gives at
 * init is stored before any byte is sent; the post is then only ever asked about (status/fetch),
 * so a crash resumes the upload or finds the post, and never posts twice:
 * - `init`: nothing asked of TikTok yet (an init whose answer was lost leaves an empty draft, never a post);
 * - `uploading`: a video's publish_id and upload URL; chunks go from where TikTok says it stands;
 * - `processing`: TikTok has the media and is publishing; its status is polled (a post not private
 *   until moderation shows its id).
 */
/** Whether the post is not private (SELF_ONLY), so an id shows after moderation; absent in handles stored before. */
const Public = Schema.optional(Schema.Boolean)
/** A draft sent to the creator's inbox (tiktok.draft): done at SEND_TO_USER_INBOX; absent in handles stored before. */
const Draft = Schema.optional(Schema.Boolean)
const Handle = Schema.Union([
  Schema.Struct({ v: Schema.Literal(1), stage: Schema.Literal("init"), startedAt: Schema.Number }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("uploading"),
    startedAt: Schema.Number,
    publishId: Schema.String,
    uploadUrl: Schema.String,
    username: Schema.String,
    chunkSize: Schema.Number,
    sizes: Schema.Array(Schema.Number),
    public: Public,
    draft: Draft
  }),
  Schema.Struct({
    v: Schema.Literal(1),
    stage: Schema.Literal("processing"),
    startedAt: Schema.Number,
    publishId: Schema.String,
    username: Schema.String,
    photo: Schema.Boolean,
    polls: Schema.Number,
    public: Public,
    draft: Draft
  })
])

export type TikTokHandle = typeof Handle.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Handle))

export const encodeHandle = (handle: TikTokHandle): string => JSON.stringify(handle)

export const decodeHandle = (text: string | null | undefined): Option.Option<TikTokHandle> =>
  text === null || text === undefined ? Option.none() : decode(text)
