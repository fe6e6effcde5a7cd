import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import {
  type AdvisedPost,
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery,
  type UnpublishRequest
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import { fetchableUrl } from "../shared/media.ts"
import type { Acting, CreateResult, GoogleBusinessApi, LocalPost } from "./api.ts"
import { decodeHandle, encodeHandle, type GoogleBusinessHandle } from "./handle.ts"
import { comparable, localPostOf } from "./localPost.ts"

type Reviewing = Extract<GoogleBusinessHandle, { stage: "reviewing" }>

const CLOCK_SKEW_MS = 2 * 60_000
/** Google's review is asked about after 10 s, then less often, at most every 5 minutes. */
const reviewDelayMs = (polls: number) => Math.min(300_000, 10_000 * 2 ** polls)
/** A post Google has not finished reviewing after this long counts as published (it exists; Google shows it once reviewed). */
const REVIEW_LIMIT_MS = 6 * 3600_000
/** Trouble while Google reviews (down, throttled) keeps the handle this long: the post exists, it is never sent again. */
const KEEP_HANDLE_MS = 24 * 3600_000
const TROUBLE_WAIT_MS = 30_000

const actingOf = (credentials: NetworkCredentials | null): Effect.Effect<Acting, PublishError> => {
  const account = credentials?.extra?.account
  const location = credentials?.extra?.location
  return credentials === null || account === undefined || location === undefined
    ? Effect.fail(PublishError.unauthorized({ message: "The Business Profile location has no stored access." }))
    : Effect.succeed({ parent: `${account}/${location}`, accessToken: credentials.accessToken })
}

const processing = (handle: GoogleBusinessHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const refused = (message: string, networkCode?: string) =>
  PublishError.refused({ code: "upstream_rejected", message, networkCode })

const rejected = (post: LocalPost) =>
  refused(
    `Google rejected the post (state REJECTED) under its Business Profile content policies; ${post.name} stays on the location, unpublished.`,
    "REJECTED"
  )

/**
 * Local posts on a Business Profile location (v4 localPosts.create): the text as the summary (1,500
 * characters), one image Google fetches from Herald's signed link, and the post's googleBusiness
 * settings (an update, an event or an offer, a call to action). Google reviews each post: PROCESSING
 * is asked about as checkpointed Processing outcomes until LIVE (published) or REJECTED (refused).
 * Google has no idempotency key: a create whose answer was lost is looked for among the location's
 * recent posts with the same text made since the attempt started.
 */
export const make = (deps: {
  readonly api: GoogleBusinessApi
  readonly blobs: BlobStoreShape
  readonly languageCode: string
}): Publisher => {
  const keepHandle =
    (handle: Reviewing) =>
    (e: PublishError): Effect.Effect<PublishOutcome, PublishError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        e.retryable && now - handle.startedAt < KEEP_HANDLE_MS
          ? Effect.succeed(processing(handle, e.retryAfterMs ?? TROUBLE_WAIT_MS))
          : Effect.fail(e)
      )

  /** What Google's state says of a post it made: live, refused, or still under review. */
  const stateOf = (post: LocalPost, handle: Reviewing): Effect.Effect<PublishOutcome, PublishError> =>
    Effect.gen(function* () {
      const searchUrl = post.searchUrl ?? handle.searchUrl
      if (post.state === "REJECTED") return yield* rejected(post)
      if (post.state !== "PROCESSING") return published(post.name, searchUrl)
      if ((yield* Clock.currentTimeMillis) - handle.startedAt > REVIEW_LIMIT_MS) return published(post.name, searchUrl)
      return processing({ ...handle, searchUrl, polls: handle.polls + 1 }, reviewDelayMs(handle.polls))
    })

  const settle = (result: CreateResult, startedAt: number): Effect.Effect<PublishOutcome, PublishError> => {
    switch (result._tag) {
      case "Created":
        return stateOf(result.post, {
          v: 1,
          stage: "reviewing",
          startedAt,
          name: result.post.name,
          searchUrl: result.post.searchUrl ?? null,
          polls: 0
        })
      case "Refused":
        return Effect.fail(result.error)
      case "Unknown":
        return Effect.fail(
          PublishError.outcomeUnknown({ message: `The outcome of the Business Profile post is unknown: ${result.why}` })
        )
    }
  }

  const send = (request: PublishRequest, acting: Acting, startedAt: number) =>
    Effect.gen(function* () {
      if (request.media.some((m) => m.type === "video"))
        return yield* refused("Google Business Profile posts take no video through the API: one image at most.")
      if (request.media.length > 1) return yield* refused("Google Business Profile posts take one image.")
      const image = request.media[0]
      const imageUrl = image === undefined ? null : yield* fetchableUrl(deps.blobs, image.blobKey)
      const result = yield* deps.api.createPost(acting, localPostOf(request, deps.languageCode, imageUrl))
      return yield* settle(result, startedAt)
    })

  const review = (acting: Acting, handle: Reviewing) =>
    Effect.flatMap(deps.api.post(acting, handle.name), (found) =>
      Option.match(found, {
        onNone: () =>
          Effect.fail(refused(`Google no longer has the post ${handle.name} (deleted on the Business Profile?).`)),
        onSome: (post) => stateOf(post, handle)
      })
    ).pipe(Effect.catch(keepHandle(handle)))

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      if (request.replyTo !== null)
        return yield* PublishError.refused({
          code: "first_comment_unsupported",
          message: "Google Business Profile posts take no comments or threads."
        })
      const acting = yield* actingOf(request.credentials)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(
        decodeHandle(handleText),
        (): GoogleBusinessHandle => ({ v: 1, stage: "sending", startedAt: now })
      )
      return yield* handle.stage === "sending" ? send(request, acting, handle.startedAt) : review(acting, handle)
    })

  /** A lost create: the location's recent posts, one with the same text and topic made since the attempt began. */
  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const found = decodeHandle(handleText)
      if (Option.isNone(found)) return { _tag: "Unknown" } satisfies Recovery
      const handle = found.value
      // The post exists and publish asks Google about it again: nothing is sent twice.
      if (handle.stage === "reviewing") return { _tag: "NotPublished" } satisfies Recovery
      const acting = yield* actingOf(request.credentials)
      const wanted = localPostOf(request, deps.languageCode, null)
      const made = (yield* deps.api.recentPosts(acting)).find(
        (p) =>
          comparable(p.summary ?? "") === comparable(wanted.summary ?? "") &&
          (p.topicType ?? "STANDARD") === wanted.topicType &&
          (p.createTime === undefined || Date.parse(p.createTime) >= handle.startedAt - CLOCK_SKEW_MS)
      )
      if (made === undefined) return { _tag: "NotPublished" } satisfies Recovery
      // A rejected post is neither live nor to be sent again as it is: a person decides.
      if (made.state === "REJECTED") return { _tag: "Unknown" } satisfies Recovery
      return { _tag: "Published", published: { externalId: made.name, url: made.searchUrl ?? null } } satisfies Recovery
    })

  /** DELETE /v4/{name}: a post is one object (no threads or comments). */
  const unpublish = (request: UnpublishRequest) =>
    Effect.flatMap(actingOf(request.credentials), (acting) => deps.api.deletePost(acting, request.externalId))

  /** The dry run's word on what only Google decides (an image link the internet cannot reach is the dry run's own warning). */
  const advise = (_account: Account, _dueAt: number, post: AdvisedPost) => {
    const options = post.options.googleBusiness
    const topic = options?.topicType ?? "STANDARD"
    return Effect.succeed([
      "Google reviews every Business Profile post: it shows once Google finds it LIVE, and a REJECTED post fails the target with Google's word (phone numbers in the text are a common reason).",
      ...(topic === "STANDARD"
        ? []
        : [`The ${topic.toLowerCase()}'s dates and times are the location's own local time, as Google shows them.`]),
      ...(options?.languageCode === undefined
        ? [`No googleBusiness.languageCode: the post is marked ${deps.languageCode} (GOOGLE_BUSINESS_LANGUAGE).`]
        : [])
    ])
  }

  return {
    platform: "google_business",
    prepare: () =>
      Effect.map(Clock.currentTimeMillis, (now) => encodeHandle({ v: 1, stage: "sending", startedAt: now })),
    publish,
    recover,
    unpublish,
    advise
  }
}
