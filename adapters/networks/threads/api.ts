import { Effect, Option, Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import type { ContainerStatus } from "../meta/containers.ts"
import { type CreateResult, decoder, type Graph } from "../meta/graph.ts"

/** The Threads API endpoints Herald uses (graph.threads.net/v1.0), their answers decoded. */

const Id = Schema.Struct({ id: Schema.String })
const Status = Schema.Struct({ status: Schema.optional(Schema.String), error_message: Schema.optional(Schema.String) })
const Permalink = Schema.Struct({ permalink: Schema.optional(Schema.String) })
const Posts = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      text: Schema.optional(Schema.String),
      timestamp: Schema.optional(Schema.String),
      permalink: Schema.optional(Schema.String)
    })
  )
})
const Quotas = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      quota_usage: Schema.optional(Schema.Number),
      config: Schema.optional(
        Schema.Struct({ quota_total: Schema.optional(Schema.Number), quota_duration: Schema.optional(Schema.Number) })
      ),
      reply_quota_usage: Schema.optional(Schema.Number),
      reply_config: Schema.optional(
        Schema.Struct({ quota_total: Schema.optional(Schema.Number), quota_duration: Schema.optional(Schema.Number) })
      )
    })
  )
})
const Profile = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.optional(Schema.String),
  threads_profile_picture_url: Schema.optional(Schema.String)
})
export type ThreadsProfile = typeof Profile.Type

const decodeId = decoder(Id)
const decodeStatus = decoder(Status)
const decodePermalink = decoder(Permalink)
const decodePosts = decoder(Posts)
const decodeQuotas = decoder(Quotas)
const decodeProfile = decoder(Profile)

export interface Acting {
  readonly userId: string
  readonly token: string
}

const path = (...parts: ReadonlyArray<string>) => `/${parts.map(encodeURIComponent).join("/")}`

/** Threads' 24-hour caps (posts and replies) and what is used of them. */
export interface Quota {
  readonly posts: { readonly used: number; readonly limit: number }
  readonly replies: { readonly used: number; readonly limit: number }
  readonly windowSeconds: number
}

/** The documented caps when Threads names none (250 posts and 1,000 replies a day). */
export const DAILY_POSTS = 250
export const DAILY_REPLIES = 1000

export const makeApi = (graph: Graph) => ({
  graph,
  me: (token: string): Effect.Effect<ThreadsProfile, PublishError> =>
    graph.expect(
      {
        method: "GET",
        path: "/me",
        token,
        params: { fields: "id,username,name,threads_profile_picture_url" },
        acting: null
      },
      decodeProfile,
      "the account's profile"
    ),

  /** POST /{user}/threads: a container's id. */
  createContainer: (a: Acting, params: Readonly<Record<string, string>>) =>
    graph
      .expect(
        { method: "POST", path: path(a.userId, "threads"), token: a.token, params, acting: a.userId },
        decodeId,
        "a Threads container"
      )
      .pipe(Effect.map((c) => c.id)),

  /** GET /{container}?fields=status,error_message. */
  containerStatus: (a: Acting, container: string): Effect.Effect<ContainerStatus, PublishError> =>
    graph
      .expect(
        {
          method: "GET",
          path: path(container),
          token: a.token,
          params: { fields: "status,error_message" },
          acting: a.userId
        },
        decodeStatus,
        "a container's status"
      )
      .pipe(Effect.map((s) => ({ status: s.status ?? "IN_PROGRESS", message: s.error_message ?? null }))),

  /** POST /{user}/threads_publish?creation_id=: the post's id. */
  publishContainer: (a: Acting, container: string): Effect.Effect<CreateResult> =>
    graph.create({
      method: "POST",
      path: path(a.userId, "threads_publish"),
      token: a.token,
      params: { creation_id: container },
      acting: a.userId
    }),

  permalink: (a: Acting, id: string): Effect.Effect<string | null> =>
    graph
      .expect(
        { method: "GET", path: path(id), token: a.token, params: { fields: "permalink" }, acting: a.userId },
        decodePermalink,
        "a permalink"
      )
      .pipe(
        Effect.map((p) => p.permalink ?? null),
        Effect.orElseSucceed(() => null)
      ),

  /** The account's newest posts, or its newest replies (recovery). */
  recent: (a: Acting, kind: "threads" | "replies") =>
    graph
      .expect(
        {
          method: "GET",
          path: path(a.userId, kind),
          token: a.token,
          params: { fields: "id,text,timestamp,permalink", limit: "10" },
          acting: a.userId
        },
        decodePosts,
        "the account's recent posts"
      )
      .pipe(Effect.map((l) => l.data)),

  /** GET /{user}/threads_publishing_limit: posts and replies used of the 24-hour caps. */
  quota: (a: Acting): Effect.Effect<Quota, PublishError> =>
    graph
      .expect(
        {
          method: "GET",
          path: path(a.userId, "threads_publishing_limit"),
          token: a.token,
          params: { fields: "quota_usage,config,reply_quota_usage,reply_config" },
          acting: a.userId
        },
        (r) => Option.flatMap(decodeQuotas(r), (l) => Option.fromNullishOr(l.data[0])),
        "the publishing limit"
      )
      .pipe(
        Effect.map((row) => ({
          posts: { used: row.quota_usage ?? 0, limit: row.config?.quota_total ?? DAILY_POSTS },
          replies: { used: row.reply_quota_usage ?? 0, limit: row.reply_config?.quota_total ?? DAILY_REPLIES },
          windowSeconds: row.config?.quota_duration ?? 86_400
        }))
      )
})

export type ThreadsApi = ReturnType<typeof makeApi>
