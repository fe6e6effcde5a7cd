import { Effect, Option, Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import type { ContainerStatus } from "../meta/containers.ts"
import { type CreateResult, decoder, type Graph } from "../meta/graph.ts"

/** The Instagram endpoints Herald uses (the same paths on graph.instagram.com and graph.facebook.com), their answers decoded. */

const Id = Schema.Struct({ id: Schema.String })
const Status = Schema.Struct({ status_code: Schema.optional(Schema.String), status: Schema.optional(Schema.String) })
const Permalink = Schema.Struct({ permalink: Schema.optional(Schema.String) })
const MediaList = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      caption: Schema.optional(Schema.String),
      timestamp: Schema.optional(Schema.String),
      permalink: Schema.optional(Schema.String)
    })
  )
})
const CommentList = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      text: Schema.optional(Schema.String),
      timestamp: Schema.optional(Schema.String)
    })
  )
})
const Limit = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      quota_usage: Schema.Number,
      config: Schema.optional(
        Schema.Struct({ quota_total: Schema.optional(Schema.Number), quota_duration: Schema.optional(Schema.Number) })
      )
    })
  )
})
const Profile = Schema.Struct({
  id: Schema.String,
  user_id: Schema.optional(Schema.Union([Schema.String, Schema.Number])),
  username: Schema.String,
  name: Schema.optional(Schema.String),
  profile_picture_url: Schema.optional(Schema.String)
})
export type InstagramProfile = typeof Profile.Type
export type MediaItem = (typeof MediaList.Type)["data"][number]
export type CommentItem = (typeof CommentList.Type)["data"][number]

const decodeId = decoder(Id)
const decodeStatus = decoder(Status)
const decodePermalink = decoder(Permalink)
const decodeMedia = decoder(MediaList)
const decodeComments = decoder(CommentList)
const decodeLimit = decoder(Limit)
const decodeProfile = decoder(Profile)

/** The account a call acts for: its Instagram user id, a token for it, and the Graph host its login uses. */
export interface Acting {
  readonly userId: string
  readonly token: string
  readonly graph: Graph
}

const path = (...parts: ReadonlyArray<string>) => `/${parts.map(encodeURIComponent).join("/")}`

/** What Meta's publishing cap says now: posts made in the last 24 hours and the cap. */
export interface Quota {
  readonly used: number
  readonly limit: number
  readonly windowSeconds: number
}

/** The documented cap when Meta names none (media_publish reference: 50 a day). */
export const DEFAULT_DAILY_POSTS = 50

export const api = {
  /** The Instagram Login user (connecting): `user_id` is the professional account's id publishing uses. */
  me: (graph: Graph, token: string): Effect.Effect<InstagramProfile, PublishError> =>
    graph.expect(
      {
        method: "GET",
        path: "/me",
        token,
        params: { fields: "id,user_id,username,name,profile_picture_url" },
        acting: null
      },
      decodeProfile,
      "the account's profile"
    ),

  /** POST /{ig-user-id}/media: a container's id. */
  createContainer: (a: Acting, params: Readonly<Record<string, string>>) =>
    a.graph
      .expect(
        { method: "POST", path: path(a.userId, "media"), token: a.token, params, acting: a.userId },
        decodeId,
        "a media container"
      )
      .pipe(Effect.map((c) => c.id)),

  /** GET /{container}?fields=status_code,status: where Meta's processing is, and its words when it failed. */
  containerStatus: (a: Acting, container: string): Effect.Effect<ContainerStatus, PublishError> =>
    a.graph
      .expect(
        {
          method: "GET",
          path: path(container),
          token: a.token,
          params: { fields: "status_code,status" },
          acting: a.userId
        },
        decodeStatus,
        "a container's status"
      )
      .pipe(Effect.map((s) => ({ status: s.status_code ?? "IN_PROGRESS", message: s.status ?? null }))),

  /** POST /{ig-user-id}/media_publish?creation_id=: the media id. */
  publishContainer: (a: Acting, container: string): Effect.Effect<CreateResult> =>
    a.graph.create({
      method: "POST",
      path: path(a.userId, "media_publish"),
      token: a.token,
      params: { creation_id: container },
      acting: a.userId
    }),

  /** The URL of a media (it cannot be derived from the id); null when Meta does not say. */
  permalink: (a: Acting, id: string): Effect.Effect<string | null> =>
    a.graph
      .expect(
        { method: "GET", path: path(id), token: a.token, params: { fields: "permalink" }, acting: a.userId },
        decodePermalink,
        "a permalink"
      )
      .pipe(
        Effect.map((p) => p.permalink ?? null),
        Effect.orElseSucceed(() => null)
      ),

  /** The account's newest media (recovery). */
  recentMedia: (a: Acting) =>
    a.graph
      .expect(
        {
          method: "GET",
          path: path(a.userId, "media"),
          token: a.token,
          params: { fields: "id,caption,timestamp,permalink", limit: "10" },
          acting: a.userId
        },
        decodeMedia,
        "the account's recent media"
      )
      .pipe(Effect.map((l) => l.data)),

  /** The account's stories of the last 24 hours (recovery of a story: they are not in /media). */
  recentStories: (a: Acting) =>
    a.graph
      .expect(
        {
          method: "GET",
          path: path(a.userId, "stories"),
          token: a.token,
          params: { fields: "id,timestamp,permalink" },
          acting: a.userId
        },
        decodeMedia,
        "the account's stories"
      )
      .pipe(Effect.map((l) => l.data)),

  /** POST /{ig-media-id}/comments?message=: the comment's id. */
  comment: (a: Acting, mediaId: string, message: string): Effect.Effect<CreateResult> =>
    a.graph.create({
      method: "POST",
      path: path(mediaId, "comments"),
      token: a.token,
      params: { message },
      acting: a.userId
    }),

  /** The comments on a media (recovery of a first comment). */
  comments: (a: Acting, mediaId: string) =>
    a.graph
      .expect(
        {
          method: "GET",
          path: path(mediaId, "comments"),
          token: a.token,
          params: { fields: "id,text,timestamp", limit: "50" },
          acting: a.userId
        },
        decodeComments,
        "a media's comments"
      )
      .pipe(Effect.map((l) => l.data)),

  /** GET /{ig-user-id}/content_publishing_limit: Meta's 24-hour publishing cap and what is used of it. */
  quota: (a: Acting): Effect.Effect<Quota, PublishError> =>
    a.graph
      .expect(
        {
          method: "GET",
          path: path(a.userId, "content_publishing_limit"),
          token: a.token,
          params: { fields: "quota_usage,config" },
          acting: a.userId
        },
        (r) => Option.flatMap(decodeLimit(r), (l) => Option.fromNullishOr(l.data[0])),
        "the publishing limit"
      )
      .pipe(
        Effect.map((row) => ({
          used: row.quota_usage,
          limit: row.config?.quota_total ?? DEFAULT_DAILY_POSTS,
          windowSeconds: row.config?.quota_duration ?? 86_400
        }))
      )
}
