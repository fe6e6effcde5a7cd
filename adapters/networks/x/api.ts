import { Effect, Option, Schema } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, isSuccess, type NoAnswer } from "../shared/http.ts"
import type { Throttled, XClient } from "./client.ts"
import type { XConfig } from "./config.ts"
import { noAnswerError, publishErrorOf, throttledError } from "./errors.ts"

/** X API v2 endpoints Herald uses, their answers decoded. Paths are appended to X_API_URL (media: X_UPLOAD_URL). */

const User = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    username: Schema.String,
    profile_image_url: Schema.optional(Schema.String)
  })
})
export type XUser = (typeof User.Type)["data"]

const Created = Schema.Struct({ data: Schema.Struct({ id: Schema.String }) })

const ProcessingInfo = Schema.Struct({
  state: Schema.String,
  check_after_secs: Schema.optional(Schema.Number),
  error: Schema.optional(
    Schema.Struct({
      code: Schema.optional(Schema.Number),
      name: Schema.optional(Schema.String),
      message: Schema.optional(Schema.String)
    })
  )
})
export type ProcessingInfo = typeof ProcessingInfo.Type

const Media = Schema.Struct({
  data: Schema.Struct({ id: Schema.String, processing_info: Schema.optional(ProcessingInfo) })
})
const Status = Schema.Struct({ data: Schema.Struct({ processing_info: Schema.optional(ProcessingInfo) }) })

const Timeline = Schema.Struct({
  data: Schema.optional(
    Schema.Array(
      Schema.Struct({
        id: Schema.String,
        text: Schema.String,
        /** Long posts: `text` is cut short, the whole text is here. */
        note_tweet: Schema.optional(Schema.Struct({ text: Schema.String })),
        referenced_tweets: Schema.optional(Schema.Array(Schema.Struct({ type: Schema.String, id: Schema.String })))
      })
    )
  ),
  meta: Schema.optional(Schema.Struct({ next_token: Schema.optional(Schema.String) }))
})
export type TimelinePage = typeof Timeline.Type

const decode = decodeReply
const decodeUser = decode(User)
const decodeCreated = decode(Created)
const decodeMedia = decode(Media)
const decodeStatus = decode(Status)
const decodeTimeline = decode(Timeline)

/** The account a call acts for: its X user id and a fresh access token. */
export interface Acting {
  readonly userId: string
  readonly accessToken: string
}

/** The tweet create body: text and, when given, media, poll and the tweet replied to. */
export interface NewTweet {
  readonly text: string
  readonly media?: { readonly media_ids: ReadonlyArray<string> }
  readonly poll?: { readonly options: ReadonlyArray<string>; readonly duration_minutes: number }
  readonly reply?: { readonly in_reply_to_tweet_id: string }
}

/** What a create call came to: a post id, X's refusal, or no way to tell whether X created it. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly id: string }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

const asPublishError = (e: Throttled | NoAnswer) => (e._tag === "Throttled" ? throttledError(e) : noAnswerError(e))

/** A 2xx whose body is not what X documents: X is misbehaving, try again later. */
const unreadable = (what: string) => PublishError.unavailable({ message: `X's answer to ${what} could not be read.` })

export type XApi = ReturnType<typeof makeXApi>

export const makeXApi = (config: XConfig, client: XClient) => {
  const api = (path: string) => `${config.apiUrl}${path}`
  const upload = (path: string) => `${config.uploadUrl}${path}`

  /** A call whose non-2xx answers are X's refusals, and whose 2xx body is decoded by `read`. */
  const expect = <A>(
    reply: Effect.Effect<HttpReply, Throttled | NoAnswer>,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ) =>
    reply.pipe(
      Effect.mapError(asPublishError),
      Effect.flatMap((r) =>
        isSuccess(r)
          ? Option.match(read(r), { onNone: () => Effect.fail(unreadable(what)), onSome: Effect.succeed })
          : Effect.fail(publishErrorOf(r))
      )
    )

  return {
    /** The profile of the token's user (connecting): the reply as is when it is not a 2xx. */
    me: (accessToken: string): Effect.Effect<XUser, Throttled | NoAnswer | HttpReply> =>
      client
        .call({
          limit: "me",
          userId: null,
          accessToken,
          method: "GET",
          url: api("/2/users/me?user.fields=profile_image_url")
        })
        .pipe(
          Effect.flatMap((r) =>
            isSuccess(r)
              ? Option.match(decodeUser(r), { onNone: () => Effect.fail(r), onSome: (u) => Effect.succeed(u.data) })
              : Effect.fail(r)
          )
        ),

    /**
     * POST /2/tweets. No answer, a 5xx or an unreadable 2xx leave the outcome unknown: X may have
     * created the post, so the caller must look before sending again.
     */
    createTweet: (acting: Acting, tweet: NewTweet): Effect.Effect<CreateResult> =>
      client
        .call({
          limit: "tweets",
          userId: acting.userId,
          accessToken: acting.accessToken,
          method: "POST",
          url: api("/2/tweets"),
          json: tweet
        })
        .pipe(
          Effect.map((r): CreateResult => {
            if (isSuccess(r))
              return Option.match(decodeCreated(r), {
                onNone: () => ({ _tag: "Unknown", why: "X accepted the post but its answer could not be read." }),
                onSome: (c) => ({ _tag: "Created", id: c.data.id })
              })
            if (r.status >= 500) return { _tag: "Unknown", why: `X answered ${r.status} to the post.` }
            return { _tag: "Refused", error: publishErrorOf(r) }
          }),
          Effect.catchTags({
            Throttled: (e) => Effect.succeed<CreateResult>({ _tag: "Refused", error: throttledError(e) }),
            NoAnswer: (e) => Effect.succeed<CreateResult>({ _tag: "Unknown", why: e.message })
          })
        ),

    /** DELETE /2/tweets/:id; a post X no longer has (404) is already removed. */
    deleteTweet: (acting: Acting, id: string): Effect.Effect<void, PublishError> =>
      client
        .call({
          limit: "deletes",
          userId: acting.userId,
          accessToken: acting.accessToken,
          method: "DELETE",
          url: api(`/2/tweets/${encodeURIComponent(id)}`)
        })
        .pipe(
          Effect.catchTags({
            Throttled: (e) => Effect.fail(throttledError(e)),
            NoAnswer: (e) => Effect.fail(noAnswerError(e))
          }),
          Effect.flatMap((r) => (isSuccess(r) || r.status === 404 ? Effect.void : Effect.fail(publishErrorOf(r))))
        ),

    /** One image in one request (POST /2/media/upload, multipart). */
    uploadImage: (acting: Acting, bytes: Uint8Array<ArrayBuffer>, mimeType: string) => {
      const form = new FormData()
      form.set("media", new Blob([bytes], { type: mimeType }), "media")
      form.set("media_category", "tweet_image")
      return expect(
        client.call({ ...acting, limit: "media", method: "POST", url: upload("/2/media/upload"), form }),
        decodeMedia,
        "an image upload"
      ).pipe(Effect.map((m) => m.data))
    },

    /** Starts a chunked upload (video or GIF). */
    initialize: (
      acting: Acting,
      init: { readonly media_type: string; readonly total_bytes: number; readonly media_category: string }
    ) =>
      expect(
        client.call({
          ...acting,
          limit: "media",
          method: "POST",
          url: upload("/2/media/upload/initialize"),
          json: init
        }),
        decodeMedia,
        "an upload's start"
      ).pipe(Effect.map((m) => m.data.id)),

    /** One segment of a chunked upload (multipart: segment_index and media). */
    append: (acting: Acting, mediaId: string, index: number, segment: Uint8Array<ArrayBuffer>) => {
      const form = new FormData()
      form.set("segment_index", String(index))
      form.set("media", new Blob([segment], { type: "application/octet-stream" }), "media")
      return client
        .call({
          ...acting,
          limit: "media",
          method: "POST",
          url: upload(`/2/media/upload/${encodeURIComponent(mediaId)}/append`),
          form,
          timeoutMs: 120_000,
          // X keeps one segment per index: sending an index again replaces it.
          idempotent: true
        })
        .pipe(
          Effect.mapError(asPublishError),
          Effect.flatMap((r) => (isSuccess(r) ? Effect.void : Effect.fail(publishErrorOf(r))))
        )
    },

    /** Ends a chunked upload; processing_info says whether X still works on it. */
    finalize: (acting: Acting, mediaId: string) =>
      expect(
        client.call({
          ...acting,
          limit: "media",
          method: "POST",
          url: upload(`/2/media/upload/${encodeURIComponent(mediaId)}/finalize`)
        }),
        decodeMedia,
        "an upload's end"
      ).pipe(Effect.map((m) => m.data)),

    /** Where X's processing of an upload is (GET /2/media/upload?command=STATUS). */
    status: (acting: Acting, mediaId: string) =>
      expect(
        client.call({
          ...acting,
          limit: "media",
          method: "GET",
          url: upload(`/2/media/upload?command=STATUS&media_id=${encodeURIComponent(mediaId)}`)
        }),
        decodeStatus,
        "a processing status"
      ).pipe(Effect.map((s) => s.data.processing_info ?? null)),

    /** The account's posts since `startTime` (newest first), a page of at most 5 (recovery). */
    recentTweets: (acting: Acting, startTime: string, nextToken: string | null) => {
      const query = new URLSearchParams({
        max_results: "5",
        start_time: startTime,
        "tweet.fields": "created_at,referenced_tweets,note_tweet"
      })
      if (nextToken !== null) query.set("pagination_token", nextToken)
      return expect(
        client.call({
          ...acting,
          limit: "timeline",
          method: "GET",
          url: api(`/2/users/${encodeURIComponent(acting.userId)}/tweets?${query}`)
        }),
        decodeTimeline,
        "the account's recent posts"
      )
    }
  }
}
