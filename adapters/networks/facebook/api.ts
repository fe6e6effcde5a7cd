import { Effect, Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import { type CreateResult, decoder, type Graph } from "../shared/metaGraph.ts"

/** The Facebook Pages endpoints Herald uses (graph.facebook.com/{version}), their answers decoded. */

const Id = Schema.Struct({ id: Schema.String })
const VideoStatus = Schema.Struct({
  status: Schema.optional(
    Schema.Struct({
      video_status: Schema.optional(Schema.String),
      processing_phase: Schema.optional(
        Schema.Struct({ status: Schema.optional(Schema.String), error: Schema.optional(Schema.Struct({ message: Schema.optional(Schema.String) })) })
      )
    })
  ),
  permalink_url: Schema.optional(Schema.String)
})
export type VideoStatus = typeof VideoStatus.Type
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

/** The Page a call acts for and its Page token. */
export interface Acting {
  readonly pageId: string
  readonly token: string
}

const path = (...parts: ReadonlyArray<string>) => `/${parts.map(encodeURIComponent).join("/")}`

export const makeApi = (graph: Graph) => ({
  /** POST /{page-id}/feed: text, a link (Meta builds its preview), or photos uploaded before (attached_media). */
  feed: (a: Acting, params: Readonly<Record<string, string>>): Effect.Effect<CreateResult> =>
    graph.create({ method: "POST", path: path(a.pageId, "feed"), token: a.token, params, acting: a.pageId }),

  /** POST /{page-id}/photos {url, published:false}: a photo Meta fetches, to attach to a post. */
  unpublishedPhoto: (a: Acting, url: string): Effect.Effect<string, PublishError> =>
    graph
      .expect({ method: "POST", path: path(a.pageId, "photos"), token: a.token, params: { url, published: "false" }, acting: a.pageId }, decodeId, "a photo upload")
      .pipe(Effect.map((p) => p.id)),

  /** POST /{page-id}/videos (multipart: file_url Meta fetches, description, published, thumb). */
  video: (a: Acting, form: FormData): Effect.Effect<CreateResult> =>
    graph.create({ method: "POST", path: path(a.pageId, "videos"), token: a.token, form, acting: a.pageId, timeoutMs: 120_000 }),

  /** GET /{video-id}?fields=status,permalink_url: whether Meta finished processing the video. */
  videoStatus: (a: Acting, videoId: string) =>
    graph.expect({ method: "GET", path: path(videoId), token: a.token, params: { fields: "status,permalink_url" }, acting: a.pageId }, decodeVideoStatus, "a video's status"),

  /** POST /{object-id}/comments {message}: a comment as the Page. */
  comment: (a: Acting, objectId: string, message: string): Effect.Effect<CreateResult> =>
    graph.create({ method: "POST", path: path(objectId, "comments"), token: a.token, params: { message }, acting: a.pageId }),

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
        { method: "GET", path: path(a.pageId, "published_posts"), token: a.token, params: { fields: "id,message,created_time,permalink_url", limit: "10" }, acting: a.pageId },
        decodePosts,
        "the Page's recent posts"
      )
      .pipe(Effect.map((l) => l.data)),

  /** The Page's newest videos (recovery of a video post). */
  videos: (a: Acting) =>
    graph
      .expect(
        { method: "GET", path: path(a.pageId, "videos"), token: a.token, params: { fields: "id,description,created_time,permalink_url", limit: "10" }, acting: a.pageId },
        decodePosts,
        "the Page's recent videos"
      )
      .pipe(Effect.map((l) => l.data))
})

export type FacebookApi = ReturnType<typeof makeApi>
