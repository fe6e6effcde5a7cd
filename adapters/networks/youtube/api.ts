import { Effect, Option } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, isSuccess, type NoAnswer } from "../shared/http.ts"
import { CHUNK_TIMEOUT_MS, type OutOfQuota, type YouTubeClient } from "./client.ts"
import type { YouTubeConfig } from "./config.ts"
import { noAnswerError, publishErrorOf, quotaError, unreadable } from "./errors.ts"
import { COST } from "./quota.ts"
import { decodeChannels, decodeThread, decodeThreads, decodeVideo, decodeVideoStatus } from "./replies.ts"

/** YouTube Data API v3 endpoints Herald uses (channels, resumable videos.insert, thumbnails, videos.list, commentThreads). */

/** The channel a call acts for and the account's fresh token. */
export interface Acting {
  readonly channel: string
  readonly accessToken: string
}

/** The video's metadata for videos.insert (snippet and status). */
export interface VideoMetadata {
  readonly snippet: { readonly title: string; readonly description: string; readonly tags?: ReadonlyArray<string> }
  readonly status: { readonly privacyStatus: string; readonly selfDeclaredMadeForKids: boolean }
}

/** Where a resumable upload session stands. */
export type SessionState =
  | { readonly _tag: "Receiving"; readonly next: number }
  | { readonly _tag: "Complete"; readonly videoId: string }
  | { readonly _tag: "Expired" }

/** What a create call came to (a comment thread). */
export type CreateResult =
  | { readonly _tag: "Created"; readonly id: string }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

const asPublishError = (e: OutOfQuota | NoAnswer) =>
  e._tag === "OutOfQuota" ? quotaError(e.retryAfterMs, e.said) : noAnswerError(e)

/** `Range: bytes=0-N` of a 308: the next byte to send (0 when nothing arrived yet). */
const nextByte = (reply: HttpReply) => {
  const range = /bytes=0-(\d+)/.exec(reply.headers.get("range") ?? "")
  return range === null ? 0 : Number(range[1]) + 1
}

export type YouTubeApi = ReturnType<typeof makeYouTubeApi>

export const makeYouTubeApi = (config: YouTubeConfig, client: YouTubeClient) => {
  const api = (path: string) => `${config.apiUrl}/youtube/v3${path}`
  const upload = (path: string) => `${config.uploadUrl}/upload/youtube/v3${path}`

  const expect = <A>(
    reply: Effect.Effect<HttpReply, OutOfQuota | NoAnswer>,
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

  /** A session's answer to bytes (or a probe): 308 with how much it holds, 200/201 with the video, 404/410 when it is gone. */
  const sessionState = (reply: HttpReply): Effect.Effect<SessionState, PublishError> => {
    if (reply.status === 308) return Effect.succeed({ _tag: "Receiving", next: nextByte(reply) })
    if (reply.status === 404 || reply.status === 410) return Effect.succeed({ _tag: "Expired" })
    if (isSuccess(reply))
      return Option.match(decodeVideo(reply), {
        onNone: () => Effect.fail(unreadable("a finished upload")),
        onSome: (v) => Effect.succeed({ _tag: "Complete", videoId: v.id })
      })
    return Effect.fail(publishErrorOf(reply))
  }

  return {
    /** The token's own channel (connecting); none when the Google account has no YouTube channel. */
    myChannel: (accessToken: string) =>
      expect(
        client.call({
          channel: null,
          accessToken,
          method: "GET",
          url: api("/channels?part=snippet&mine=true"),
          bucket: "units",
          cost: COST.list
        }),
        decodeChannels,
        "the account's channel"
      ).pipe(Effect.map((c) => Option.fromNullishOr(c.items?.[0]))),

    /** Starts a resumable upload: the session URI (Location), which takes the bytes and answers where they stand. */
    startUpload: (acting: Acting, metadata: VideoMetadata, total: number, mimeType: string) =>
      client
        .call({
          ...acting,
          method: "POST",
          url: upload("/videos?uploadType=resumable&part=snippet,status"),
          bucket: "upload",
          json: metadata,
          headers: { "x-upload-content-length": String(total), "x-upload-content-type": mimeType }
        })
        .pipe(
          Effect.mapError(asPublishError),
          Effect.flatMap((r) => {
            const location = r.headers.get("location")
            if (!isSuccess(r)) return Effect.fail(publishErrorOf(r))
            return location === null
              ? Effect.fail(unreadable("an upload's start (no session URI)"))
              : Effect.succeed(location)
          })
        ),

    /** Asks a session how much it holds (`Content-Range: bytes *\/total`), or for the video it made. */
    probe: (acting: Acting, session: string, total: number) =>
      client
        .call({
          ...acting,
          method: "PUT",
          url: session,
          bucket: "none",
          headers: { "content-range": `bytes */${total}` }
        })
        .pipe(Effect.mapError(asPublishError), Effect.flatMap(sessionState)),

    /** Sends bytes `start`.. of `total`; the session's answer. */
    putChunk: (
      acting: Acting,
      session: string,
      bytes: Uint8Array<ArrayBuffer>,
      start: number,
      total: number,
      mimeType: string
    ) =>
      client
        .call({
          ...acting,
          method: "PUT",
          url: session,
          bucket: "none",
          bytes,
          timeoutMs: CHUNK_TIMEOUT_MS,
          headers: { "content-range": `bytes ${start}-${start + bytes.length - 1}/${total}`, "content-type": mimeType }
        })
        .pipe(Effect.mapError(asPublishError), Effect.flatMap(sessionState)),

    /** The video's custom thumbnail (JPEG or PNG, at most 2 MB). */
    setThumbnail: (acting: Acting, videoId: string, bytes: Uint8Array<ArrayBuffer>, mimeType: string) =>
      client
        .call({
          ...acting,
          method: "POST",
          url: upload(`/thumbnails/set?videoId=${encodeURIComponent(videoId)}`),
          bucket: "units",
          cost: COST.thumbnail,
          bytes,
          headers: { "content-type": mimeType }
        })
        .pipe(
          Effect.mapError(asPublishError),
          Effect.flatMap((r) => (isSuccess(r) ? Effect.void : Effect.fail(publishErrorOf(r))))
        ),

    /** videos.delete (DELETE /videos?id=, 50 units): 204; a video YouTube no longer has (404 videoNotFound) is already removed. */
    deleteVideo: (acting: Acting, videoId: string): Effect.Effect<void, PublishError> =>
      client
        .call({
          ...acting,
          method: "DELETE",
          url: api(`/videos?id=${encodeURIComponent(videoId)}`),
          bucket: "units",
          cost: COST.delete
        })
        .pipe(
          Effect.mapError(asPublishError),
          Effect.flatMap((r) => (isSuccess(r) || r.status === 404 ? Effect.void : Effect.fail(publishErrorOf(r))))
        ),

    /** Upload and processing status of a video; none when YouTube has no such video (any more). */
    videoState: (acting: Acting, videoId: string) =>
      expect(
        client.call({
          ...acting,
          method: "GET",
          url: api(`/videos?part=status,processingDetails&id=${encodeURIComponent(videoId)}`),
          bucket: "units",
          cost: COST.list
        }),
        decodeVideoStatus,
        "a video's status"
      ).pipe(Effect.map((s) => Option.fromNullishOr(s.items[0]))),

    /** A top-level comment on the video. No answer or a 5xx leave the outcome unknown. */
    comment: (acting: Acting, videoId: string, text: string): Effect.Effect<CreateResult> =>
      client
        .call({
          ...acting,
          method: "POST",
          url: api("/commentThreads?part=snippet"),
          bucket: "units",
          cost: COST.comment,
          json: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } }
        })
        .pipe(
          Effect.map((r): CreateResult => {
            if (isSuccess(r))
              return Option.match(decodeThread(r), {
                onNone: () => ({
                  _tag: "Unknown",
                  why: "YouTube accepted the comment but its answer could not be read."
                }),
                onSome: (t) => ({ _tag: "Created", id: t.id })
              })
            if (r.status >= 500) return { _tag: "Unknown", why: `YouTube answered ${r.status} to the comment.` }
            return { _tag: "Refused", error: publishErrorOf(r) }
          }),
          Effect.catchTags({
            OutOfQuota: (e) =>
              Effect.succeed<CreateResult>({ _tag: "Refused", error: quotaError(e.retryAfterMs, e.said) }),
            NoAnswer: (e) => Effect.succeed<CreateResult>({ _tag: "Unknown", why: e.message })
          })
        ),

    /** The video's latest comment threads: the channel's own comment among them, by its text. */
    findComment: (acting: Acting, videoId: string, text: string) =>
      expect(
        client.call({
          ...acting,
          method: "GET",
          url: api(`/commentThreads?part=snippet&videoId=${encodeURIComponent(videoId)}&maxResults=50&order=time`),
          bucket: "units",
          cost: COST.list
        }),
        decodeThreads,
        "the video's comments"
      ).pipe(
        Effect.map((t) =>
          Option.fromNullishOr(
            t.items.find((i) => {
              const c = i.snippet.topLevelComment.snippet
              return c.authorChannelId?.value === acting.channel && c.textOriginal === text
            })?.id
          )
        )
      )
  }
}
