import { Clock, Effect, Option, Schema } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, isSuccess, type NoAnswer, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { TikTokConfig } from "./config.ts"
import { codeOf, MINUTE_MS, noAnswerError, publishErrorOf, unreadable } from "./errors.ts"

/** TikTok's v2 endpoints Herald uses (user info, creator info, video, inbox and photo init, upload, status), their answers decoded. */

const envelope = <F extends Schema.Struct.Fields>(data: F) => Schema.Struct({ data: Schema.Struct(data) })

const UserInfo = envelope({
  user: Schema.Struct({
    open_id: Schema.String,
    display_name: Schema.String,
    avatar_url: Schema.optional(Schema.String)
  })
})
const CreatorInfo = envelope({
  creator_username: Schema.String,
  creator_nickname: Schema.optional(Schema.String),
  privacy_level_options: Schema.Array(Schema.String),
  comment_disabled: Schema.Boolean,
  duet_disabled: Schema.Boolean,
  stitch_disabled: Schema.Boolean,
  max_video_post_duration_sec: Schema.Number
})
export type CreatorInfo = (typeof CreatorInfo.Type)["data"]
const VideoInit = envelope({ publish_id: Schema.String, upload_url: Schema.String })
const PhotoInit = envelope({ publish_id: Schema.String })
const Status = envelope({
  status: Schema.String,
  fail_reason: Schema.optional(Schema.String),
  // sic: TikTok's own spelling.
  publicaly_available_post_id: Schema.optional(Schema.Array(Schema.Union([Schema.String, Schema.Number]))),
  uploaded_bytes: Schema.optional(Schema.Number)
})

const decode = decodeReply
const decodeUserInfo = decode(UserInfo)
const decodeCreatorInfo = decode(CreatorInfo)
const decodeVideoInit = decode(VideoInit)
const decodePhotoInit = decode(PhotoInit)
const decodeStatus = decode(Status)

/** The creator a call acts for (open_id) and a fresh token. */
export interface Acting {
  readonly openId: string
  readonly accessToken: string
}

/** TikTok's post settings for a video or photo post (post_info). */
export interface PostInfo {
  readonly title: string
  readonly description?: string
  readonly privacy_level: string
  readonly disable_comment: boolean
  readonly disable_duet?: boolean
  readonly disable_stitch?: boolean
  readonly video_cover_timestamp_ms?: number
  readonly brand_content_toggle: boolean
  readonly brand_organic_toggle: boolean
  readonly is_aigc?: boolean
  readonly auto_add_music?: boolean
}

export const CALL_TIMEOUT_MS = 30_000
export const CHUNK_TIMEOUT_MS = 300_000

/** Which per-minute window a call counts against (per token: init 6, status 30, the rest 600). */
type Window = "init" | "status" | "info"

export type TikTokApi = ReturnType<typeof makeTikTokApi>

/**
 * TikTok's API, honouring its per-minute windows: a 429 closes the creator's window for a minute and
 * later calls in it wait without reaching TikTok.
 */
export const makeTikTokApi = (config: TikTokConfig, gate: RateGate) => {
  const v2 = (path: string) => `${config.apiUrl}/v2${path}`

  const call = (
    acting: { readonly openId: string | null; readonly accessToken: string },
    window: Window,
    path: string,
    json: unknown,
    method: "GET" | "POST" = "POST"
  ) =>
    Effect.gen(function* () {
      const key = acting.openId === null ? null : `${acting.openId}:${window}`
      const closed = key === null ? 0 : yield* gate.waitFor([key])
      if (closed > 0)
        return yield* Effect.fail(
          PublishError.rateLimited({
            message: `TikTok's per-minute limit for this creator is used up; Herald waits ${Math.ceil(closed / 1000)} s.`,
            retryAfterMs: closed
          })
        )
      const reply = yield* send({
        method,
        url: v2(path),
        timeoutMs: CALL_TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${acting.accessToken}`,
          ...(method === "POST" ? { "content-type": "application/json; charset=UTF-8" } : {})
        },
        ...(method === "POST" ? { body: JSON.stringify(json) } : {})
      }).pipe(Effect.mapError((e: NoAnswer) => noAnswerError(e)))
      if ((reply.status === 429 || codeOf(reply) === "rate_limit_exceeded") && key !== null)
        yield* gate.closeUntil(key, (yield* Clock.currentTimeMillis) + MINUTE_MS)
      return reply
    })

  const expect = <A>(
    reply: Effect.Effect<HttpReply, PublishError>,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ) =>
    Effect.flatMap(reply, (r) => {
      const code = codeOf(r)
      if (!isSuccess(r) || (code !== null && code !== "ok")) return Effect.fail(publishErrorOf(r))
      return Option.match(read(r), { onNone: () => Effect.fail(unreadable(what)), onSome: Effect.succeed })
    })

  return {
    /** The token's user (connecting). */
    userInfo: (accessToken: string) =>
      expect(
        call(
          { openId: null, accessToken },
          "info",
          "/user/info/?fields=open_id,avatar_url,display_name",
          undefined,
          "GET"
        ),
        decodeUserInfo,
        "the user's profile"
      ).pipe(Effect.map((u) => u.data.user)),

    /** What the creator may post now: privacy levels, the longest video, whether comments, duets and stitches are off. */
    creatorInfo: (acting: { readonly openId: string | null; readonly accessToken: string }) =>
      expect(
        call(acting, "info", "/post/publish/creator_info/query/", {}),
        decodeCreatorInfo,
        "the creator's settings"
      ).pipe(Effect.map((c) => c.data)),

    /** Starts a video post by file upload: its publish_id and where the chunks go. */
    initVideo: (
      acting: Acting,
      postInfo: PostInfo,
      source: { readonly video_size: number; readonly chunk_size: number; readonly total_chunk_count: number }
    ) =>
      expect(
        call(acting, "init", "/post/publish/video/init/", {
          post_info: postInfo,
          source_info: { source: "FILE_UPLOAD", ...source }
        }),
        decodeVideoInit,
        "a video post's start"
      ).pipe(Effect.map((v) => v.data)),

    /** Starts a draft (Upload to inbox, scope video.upload): source_info only, the creator finishes it in the app. */
    initInboxVideo: (
      acting: Acting,
      source: { readonly video_size: number; readonly chunk_size: number; readonly total_chunk_count: number }
    ) =>
      expect(
        call(acting, "init", "/post/publish/inbox/video/init/", {
          source_info: { source: "FILE_UPLOAD", ...source }
        }),
        decodeVideoInit,
        "a draft's start"
      ).pipe(Effect.map((v) => v.data)),

    /** Starts a photo post: TikTok fetches the images from their URLs. */
    initPhotos: (acting: Acting, postInfo: PostInfo, urls: ReadonlyArray<string>) =>
      expect(
        call(acting, "init", "/post/publish/content/init/", {
          media_type: "PHOTO",
          post_mode: "DIRECT_POST",
          post_info: postInfo,
          source_info: { source: "PULL_FROM_URL", photo_cover_index: 0, photo_images: urls }
        }),
        decodePhotoInit,
        "a photo post's start"
      ).pipe(Effect.map((p) => p.data.publish_id)),

    /** One chunk to the upload URL (Content-Range bytes a-b/total). */
    putChunk: (uploadUrl: string, bytes: Uint8Array<ArrayBuffer>, start: number, total: number, mimeType: string) =>
      send({
        method: "PUT",
        url: uploadUrl,
        body: bytes,
        timeoutMs: CHUNK_TIMEOUT_MS,
        headers: { "content-type": mimeType, "content-range": `bytes ${start}-${start + bytes.length - 1}/${total}` }
      }).pipe(
        Effect.mapError(noAnswerError),
        Effect.flatMap((r) => (isSuccess(r) ? Effect.void : Effect.fail(publishErrorOf(r))))
      ),

    /**
     * Where a post stands: PROCESSING_UPLOAD, PROCESSING_DOWNLOAD, SEND_TO_USER_INBOX, PUBLISH_COMPLETE or
     * FAILED, and the post's id once public. TikTok sends the id as a JSON number of 19 digits, past what
     * a double holds exactly: it is read from the answer's text.
     */
    status: (acting: Acting, publishId: string) =>
      Effect.gen(function* () {
        let text = ""
        const data = yield* expect(
          Effect.tap(call(acting, "status", "/post/publish/status/fetch/", { publish_id: publishId }), (r) =>
            Effect.sync(() => void (text = r.text))
          ),
          decodeStatus,
          "a post's status"
        )
        const postId = /"publicaly_available_post_id"\s*:\s*\[\s*"?(\d+)/.exec(text)?.[1] ?? null
        return { ...data.data, postId }
      })
  }
}
