import { Effect, Option, Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, isSuccess, type NoAnswer } from "../shared/http.ts"
import { CALL_TIMEOUT_MS, type DailyLimit, type LinkedInClient, UPLOAD_TIMEOUT_MS } from "./client.ts"
import type { LinkedInConfig } from "./config.ts"
import { duplicateOf, noAnswerError, publishErrorOf, rateLimitedError, unreadable } from "./errors.ts"

/** LinkedIn's REST endpoints Herald uses (Posts API, Images, Videos, Social Actions), their answers decoded. */

const UserInfo = Schema.Struct({ sub: Schema.String, name: Schema.String, picture: Schema.optional(Schema.String) })
export type UserInfo = typeof UserInfo.Type

const Acls = Schema.Struct({
  elements: Schema.Array(
    Schema.Struct({ organization: Schema.String, role: Schema.String, state: Schema.optional(Schema.String) })
  )
})
const Organization = Schema.Struct({
  id: Schema.Number,
  localizedName: Schema.String,
  vanityName: Schema.optional(Schema.String)
})
export type Organization = typeof Organization.Type

const ImageUpload = Schema.Struct({ value: Schema.Struct({ uploadUrl: Schema.String, image: Schema.String }) })
const VideoUpload = Schema.Struct({
  value: Schema.Struct({
    video: Schema.String,
    uploadToken: Schema.optional(Schema.String),
    uploadInstructions: Schema.Array(
      Schema.Struct({ uploadUrl: Schema.String, firstByte: Schema.Number, lastByte: Schema.Number })
    ),
    thumbnailUploadUrl: Schema.optional(Schema.String)
  })
})
export type VideoUpload = (typeof VideoUpload.Type)["value"]
const Video = Schema.Struct({ status: Schema.String, processingFailureReason: Schema.optional(Schema.String) })
export type VideoState = typeof Video.Type

const Posts = Schema.Struct({
  elements: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      commentary: Schema.optional(Schema.String),
      createdAt: Schema.optional(Schema.Number)
    })
  )
})
export type PostsPage = typeof Posts.Type
const Comments = Schema.Struct({
  elements: Schema.Array(
    Schema.Struct({
      id: Schema.optional(Schema.String),
      $URN: Schema.optional(Schema.String),
      actor: Schema.optional(Schema.String),
      message: Schema.optional(Schema.Struct({ text: Schema.String }))
    })
  )
})
export type CommentsPage = typeof Comments.Type
const Created = Schema.Struct({ id: Schema.optional(Schema.String), $URN: Schema.optional(Schema.String) })

const decode = decodeReply
const decodeUserInfo = decode(UserInfo)
const decodeAcls = decode(Acls)
const decodeOrganization = decode(Organization)
const decodeImageUpload = decode(ImageUpload)
const decodeVideoUpload = decode(VideoUpload)
const decodeVideo = decode(Video)
const decodePosts = decode(Posts)
const decodeComments = decode(Comments)
const decodeCreated = decode(Created)

/** The member or page a call acts for, and the member's fresh access token. */
export interface Acting {
  /** urn:li:person:{sub} or urn:li:organization:{id} */
  readonly author: string
  readonly accessToken: string
}

/** What a create call (a post, a comment) came to. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly urn: string }
  | { readonly _tag: "Duplicate"; readonly urn: string; readonly error: PublishError }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

const asPublishError = (e: DailyLimit | NoAnswer) =>
  e._tag === "DailyLimit" ? rateLimitedError(e.retryAfterMs, e.said) : noAnswerError(e)

/** Roles on a page that may post as it. */
const POSTING_ROLES = new Set(["ADMINISTRATOR", "CONTENT_ADMINISTRATOR"])
const ACL_PAGE = 50

export type LinkedInApi = ReturnType<typeof makeLinkedInApi>

export const makeLinkedInApi = (config: LinkedInConfig, client: LinkedInClient) => {
  const rest = (path: string) => `${config.apiUrl}/rest${path}`
  const urn = encodeURIComponent

  /** A call whose non-2xx answers are LinkedIn's refusals and whose 2xx body is decoded by `read`. */
  const expect = <A>(
    reply: Effect.Effect<HttpReply, DailyLimit | NoAnswer>,
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
  const done = (reply: Effect.Effect<HttpReply, DailyLimit | NoAnswer>) =>
    reply.pipe(
      Effect.mapError(asPublishError),
      Effect.flatMap((r) => (isSuccess(r) ? Effect.succeed(r) : Effect.fail(publishErrorOf(r))))
    )

  /**
   * A create call: 201 with the new URN in `x-restli-id`. No answer, a 5xx or an unreadable 2xx leave
   * the outcome unknown (LinkedIn may have made it); a 422 DUPLICATE_POST names the post it duplicates.
   */
  const create = (acting: Acting, url: string, json: unknown): Effect.Effect<CreateResult> =>
    client.call({ author: acting.author, accessToken: acting.accessToken, method: "POST", url, json }).pipe(
      Effect.map((r): CreateResult => {
        if (isSuccess(r)) {
          const body = Option.getOrUndefined(decodeCreated(r))
          const id = r.headers.get("x-restli-id") ?? body?.$URN ?? body?.id
          return id === undefined || id === ""
            ? { _tag: "Unknown", why: "LinkedIn accepted it but named no URN." }
            : { _tag: "Created", urn: id }
        }
        if (r.status >= 500) return { _tag: "Unknown", why: `LinkedIn answered ${r.status}.` }
        const duplicate = duplicateOf(r)
        if (duplicate !== null && duplicate !== "")
          return { _tag: "Duplicate", urn: duplicate, error: publishErrorOf(r) }
        return { _tag: "Refused", error: publishErrorOf(r) }
      }),
      Effect.catchTags({
        DailyLimit: (e) =>
          Effect.succeed<CreateResult>({ _tag: "Refused", error: rateLimitedError(e.retryAfterMs, e.said) }),
        NoAnswer: (e) => Effect.succeed<CreateResult>({ _tag: "Unknown", why: e.message })
      })
    )

  return {
    /** The member behind the token (OpenID Connect userinfo). */
    userInfo: (accessToken: string) =>
      expect(
        client.call({ author: null, accessToken, method: "GET", url: `${config.apiUrl}/v2/userinfo` }),
        decodeUserInfo,
        "the member's profile"
      ),

    /** The pages the member may post as (approved ADMINISTRATOR or CONTENT_ADMINISTRATOR roles), every page of the list. */
    postingOrganizations: (accessToken: string) =>
      Effect.gen(function* () {
        const found: Array<string> = []
        for (let start = 0; ; start += ACL_PAGE) {
          const query = new URLSearchParams({
            q: "roleAssignee",
            state: "APPROVED",
            start: String(start),
            count: String(ACL_PAGE)
          })
          const page = yield* expect(
            client.call({
              author: null,
              accessToken,
              method: "GET",
              url: rest(`/organizationAcls?${query}`),
              restliMethod: "FINDER"
            }),
            decodeAcls,
            "the member's pages"
          )
          for (const acl of page.elements)
            if (POSTING_ROLES.has(acl.role) && acl.state !== "REVOKED" && !found.includes(acl.organization))
              found.push(acl.organization)
          if (page.elements.length < ACL_PAGE) return found
        }
      }),

    organization: (accessToken: string, organizationUrn: string) =>
      expect(
        client.call({
          author: null,
          accessToken,
          method: "GET",
          url: rest(`/organizations/${urn(organizationUrn.split(":").at(-1) ?? "")}`)
        }),
        decodeOrganization,
        "a page's profile"
      ),

    /** An image upload: where to PUT it and its URN. */
    initializeImage: (acting: Acting) =>
      expect(
        client.call({
          ...acting,
          method: "POST",
          url: rest("/images?action=initializeUpload"),
          json: { initializeUploadRequest: { owner: acting.author } }
        }),
        decodeImageUpload,
        "an image upload's start"
      ).pipe(Effect.map((u) => u.value)),

    /** A video upload: the URN, the parts to PUT (each to its own URL), the thumbnail's URL when asked for. */
    initializeVideo: (acting: Acting, fileSizeBytes: number, uploadThumbnail: boolean) =>
      expect(
        client.call({
          ...acting,
          method: "POST",
          url: rest("/videos?action=initializeUpload"),
          json: {
            initializeUploadRequest: { owner: acting.author, fileSizeBytes, uploadCaptions: false, uploadThumbnail }
          }
        }),
        decodeVideoUpload,
        "a video upload's start"
      ).pipe(Effect.map((u) => u.value)),

    /** PUTs bytes to one of LinkedIn's upload URLs; the part's ETag (videos name their parts by it). */
    put: (acting: Acting, url: string, bytes: Uint8Array<ArrayBuffer>) =>
      done(client.call({ ...acting, method: "PUT", url, bytes, upload: true, timeoutMs: UPLOAD_TIMEOUT_MS })).pipe(
        Effect.map((r) => r.headers.get("etag"))
      ),

    finalizeVideo: (acting: Acting, video: string, uploadToken: string, uploadedPartIds: ReadonlyArray<string>) =>
      done(
        client.call({
          ...acting,
          method: "POST",
          url: rest("/videos?action=finalizeUpload"),
          json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds } }
        })
      ).pipe(Effect.asVoid),

    /** Where LinkedIn's processing of a video is: WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED. */
    video: (acting: Acting, video: string) =>
      expect(
        client.call({ ...acting, method: "GET", url: rest(`/videos/${urn(video)}`), timeoutMs: CALL_TIMEOUT_MS }),
        decodeVideo,
        "a video's status"
      ),

    createPost: (acting: Acting, post: unknown) => create(acting, rest("/posts"), post),

    /** DELETE /rest/posts/{urn} (Posts API): 204; a post LinkedIn no longer has (404, 410) is already removed. */
    deletePost: (acting: Acting, postUrn: string): Effect.Effect<void, PublishError> =>
      client.call({ ...acting, method: "DELETE", url: rest(`/posts/${urn(postUrn)}`), restliMethod: "DELETE" }).pipe(
        Effect.mapError(asPublishError),
        Effect.flatMap((r) =>
          isSuccess(r) || r.status === 404 || r.status === 410 ? Effect.void : Effect.fail(publishErrorOf(r))
        )
      ),

    comment: (acting: Acting, postUrn: string, text: string) =>
      create(acting, rest(`/socialActions/${urn(postUrn)}/comments`), {
        actor: acting.author,
        object: postUrn,
        message: { text }
      }),

    /** The author's latest posts, newest first (pages only: members cannot read their own posts back). */
    recentPosts: (acting: Acting) => {
      const query = `q=author&author=${urn(acting.author)}&count=10&sortBy=LAST_MODIFIED`
      return expect(
        client.call({ ...acting, method: "GET", url: rest(`/posts?${query}`), restliMethod: "FINDER" }),
        decodePosts,
        "the page's recent posts"
      )
    },

    comments: (acting: Acting, postUrn: string) =>
      expect(
        client.call({ ...acting, method: "GET", url: rest(`/socialActions/${urn(postUrn)}/comments?count=50`) }),
        decodeComments,
        "the post's comments"
      )
  }
}
