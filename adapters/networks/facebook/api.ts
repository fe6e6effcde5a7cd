import { Effect, Option, Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import { type CreateResult, decoder, type Graph } from "../meta/graph.ts"

/** The Facebook Pages endpoints Herald uses (graph.facebook.com/{version}), their answers decoded. */

const Id = Schema.Struct({ id: Schema.String })
/** One phase of a video's way to the Page (uploading, processing, publishing): not_started, in_progress, complete or error. */
const Phase = Schema.Struct({
  status: Schema.optional(Schema.String),
  publish_status: Schema.optional(Schema.String),
  error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String) }))
})
export type VideoPhase = typeof Phase.Type
const VideoStatus = Schema.Struct({
  status: Schema.optional(
    Schema.Struct({
      video_status: Schema.optional(Schema.String),
      uploading_phase: Schema.optional(Phase),
      processing_phase: Schema.optional(Phase),
      publishing_phase: Schema.optional(Phase)
    })
  ),
  permalink_url: Schema.optional(Schema.String)
})
export type VideoStatus = typeof VideoStatus.Type
const ReelSession = Schema.Struct({ video_id: Schema.Union([Schema.String, Schema.Number]), upload_url: Schema.String })
const Success = Schema.Struct({ success: Schema.Literal(true) })
const Posts = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      message: Schema.optional(Schema.String),
      description: Schema.optional(Schema.String),
      created_time: Schema.optional(Schema.String),
      permalink_url: Schema.optional(Schema.String)
    })
  )
})
export type PagePost = (typeof Posts.Type)["data"][number]

const decodeId = decoder(Id)
const decodeVideoStatus = decoder(VideoStatus)
const decodePosts = decoder(Posts)
const decodeReelSession = decoder(ReelSession)
const decodeSuccess = decoder(Success)

/** The Page a call acts for and its Page token. */
export interface Acting {
  readonly pageId: string
  readonly token: string
}

const path = (...parts: ReadonlyArray<string>) => `/${parts.map(encodeURIComponent).join("/")}`

export const makeApi = (graph: Graph) => ({
  /** DELETE /{id}: a Page post, video, reel or comment, with the Page's token (an id already gone is removed). */
  remove: (a: Acting, id: string): Effect.Effect<void, PublishError> => graph.remove(id, a.token, a.pageId),

  /** POST /{page-id}/feed: text, a link (Meta builds its preview), or photos uploaded before (attached_media). */
  feed: (a: Acting, params: Readonly<Record<string, string>>): Effect.Effect<CreateResult> =>
    graph.create({ method: "POST", path: path(a.pageId, "feed"), token: a.token, params, acting: a.pageId }),

  /** POST /{page-id}/photos {url, published:false}: a photo Meta fetches, to attach to a post. */
  unpublishedPhoto: (a: Acting, url: string): Effect.Effect<string, PublishError> =>
    graph
      .expect(
        {
          method: "POST",
          path: path(a.pageId, "photos"),
          token: a.token,
          params: { url, published: "false" },
          acting: a.pageId
        },
        decodeId,
        "a photo upload"
      )
      .pipe(Effect.map((p) => p.id)),

  /** POST /{page-id}/videos (multipart: file_url Meta fetches, description, published, thumb). */
  video: (a: Acting, form: FormData): Effect.Effect<CreateResult> =>
    graph.create({
      method: "POST",
      path: path(a.pageId, "videos"),
      token: a.token,
      form,
      acting: a.pageId,
      timeoutMs: 120_000
    }),

  /** POST /{page-id}/video_reels?upload_phase=start: a reel's upload session, its video id and the URL its file goes to. */
  reelStart: (a: Acting): Effect.Effect<{ readonly videoId: string; readonly uploadUrl: string }, PublishError> =>
    graph
      .expect(
        {
          method: "POST",
          path: path(a.pageId, "video_reels"),
          token: a.token,
          params: { upload_phase: "start" },
          acting: a.pageId
        },
        decodeReelSession,
        "a reel's upload session"
      )
      .pipe(Effect.map((s) => ({ videoId: String(s.video_id), uploadUrl: s.upload_url }))),

  /** POST {upload_url} (rupload.facebook.com) with the Page token and a `file_url` header: Meta fetches the reel's file itself. */
  reelUpload: (a: Acting, uploadUrl: string, fileUrl: string): Effect.Effect<void, PublishError> =>
    graph
      .expect(
        {
          method: "POST",
          path: uploadUrl,
          token: a.token,
          tokenInHeader: true,
          headers: { file_url: fileUrl },
          acting: a.pageId,
          timeoutMs: 120_000
        },
        decodeSuccess,
        "a reel's upload"
      )
      .pipe(Effect.asVoid),

  /** POST /{page-id}/video_reels?upload_phase=finish&video_state=PUBLISHED: publishes the uploaded reel, its text as description; `{success:true}` names the reel's video. */
  reelFinish: (a: Acting, videoId: string, description: string): Effect.Effect<CreateResult> =>
    graph.create(
      {
        method: "POST",
        path: path(a.pageId, "video_reels"),
        token: a.token,
        params: { upload_phase: "finish", video_id: videoId, video_state: "PUBLISHED", description },
        acting: a.pageId
      },
      (reply) => Option.as(decodeSuccess(reply), videoId)
    ),

  /** GET /{video-id}?fields=status,permalink_url: how far the video (or reel) got: uploading, processing, publishing. */
  videoStatus: (a: Acting, videoId: string) =>
    graph.expect(
      {
        method: "GET",
        path: path(videoId),
        token: a.token,
        params: { fields: "status,permalink_url" },
        acting: a.pageId
      },
      decodeVideoStatus,
      "a video's status"
    ),

  /** POST /{object-id}/comments {message}: a comment as the Page. */
  comment: (a: Acting, objectId: string, message: string): Effect.Effect<CreateResult> =>
    graph.create({
      method: "POST",
      path: path(objectId, "comments"),
      token: a.token,
      params: { message },
      acting: a.pageId
    }),

  /** Recent comments on an object, newest first (recovery of a first comment). */
  comments: (a: Acting, objectId: string) =>
    graph
      .expect(
        {
          method: "GET",
          path: path(objectId, "comments"),
          token: a.token,
          params: { fields: "id,message,created_time", order: "reverse_chronological", limit: "50" },
          acting: a.pageId
        },
        decodePosts,
        "an object's comments"
      )
      .pipe(Effect.map((l) => l.data)),

  /** The Page's newest posts (recovery). */
  publishedPosts: (a: Acting) =>
    graph
      .expect(
        {
          method: "GET",
          path: path(a.pageId, "published_posts"),
          token: a.token,
          params: { fields: "id,message,created_time,permalink_url", limit: "10" },
          acting: a.pageId
        },
        decodePosts,
        "the Page's recent posts"
      )
      .pipe(Effect.map((l) => l.data)),

  /** The Page's newest videos (recovery of a video post). */
  videos: (a: Acting) =>
    graph
      .expect(
        {
          method: "GET",
          path: path(a.pageId, "videos"),
          token: a.token,
          params: { fields: "id,description,created_time,permalink_url", limit: "10" },
          acting: a.pageId
        },
        decodePosts,
        "the Page's recent videos"
      )
      .pipe(Effect.map((l) => l.data))
})

export type FacebookApi = ReturnType<typeof makeApi>
