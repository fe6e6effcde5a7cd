import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Poll } from "../../../domain/post.ts"
import type { Acting, CreateResult, LinkedInApi } from "./api.ts"
import { createdAtOf, decodeHandle, encodeHandle, type LinkedInHandle, sending } from "./handle.ts"
import { toLittleText } from "./littleText.ts"
import { uploadImages, uploadVideo } from "./media.ts"

/** A post LinkedIn made since the attempt started, less this margin for clocks that differ, is the attempt's own. */
const CLOCK_SKEW_MS = 2 * 60_000
/** Video processing is asked about after 5 s, then less often, at most every minute. */
const pollDelayMs = (polls: number) => Math.min(60_000, 5000 * 2 ** polls)

const DURATIONS: Readonly<Record<number, string>> = {
  1440: "ONE_DAY",
  4320: "THREE_DAYS",
  10080: "SEVEN_DAYS",
  20160: "FOURTEEN_DAYS"
}

export const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`

const isPage = (author: string) => author.startsWith("urn:li:organization:")

const actingOf = (request: Pick<PublishRequest, "account" | "credentials">): Effect.Effect<Acting, PublishError> =>
  request.credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The LinkedIn account has no stored access." }))
    : Effect.succeed({ author: request.account.externalId, accessToken: request.credentials.accessToken })

const processing = (handle: LinkedInHandle, checkAfterMs: number): PublishOutcome => ({
  _tag: "Processing",
  handle: encodeHandle(handle),
  checkAfterMs
})

const pollOf = (poll: Poll, content: string) => ({
  // The spec's poll.question is LinkedIn's; without one the post's text asks it (the rules saw it fits).
  question: poll.question ?? content,
  options: poll.options.map((text) => ({ text })),
  settings: { duration: DURATIONS[poll.durationMinutes] ?? "SEVEN_DAYS" }
})

/** The Posts API body: the text as little text, and a poll, one image, several images or a video. */
const postBody = (
  request: PublishRequest,
  author: string,
  media: Extract<LinkedInHandle, { stage: "ready" }> | null
) => {
  const content =
    media === null
      ? request.poll === null
        ? undefined
        : { poll: pollOf(request.poll, request.content) }
      : media.kind === "images"
        ? { multiImage: { images: media.ids.map((id) => ({ id })) } }
        : { media: { id: media.ids[0] } }
  return {
    author,
    commentary: toLittleText(request.content),
    visibility: "PUBLIC",
    distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
    ...(content === undefined ? {} : { content }),
    lifecycleState: "PUBLISHED",
    isReshareDisabledByAuthor: false
  }
}

/**
 * Posts to LinkedIn as a member or a page: text (little text), a poll, one image, several images, or
 * one video with its cover; first comments are comments on the post. Uploads are a checkpointed step
 * (`ready`), and a video's processing is polled one call at a time (Processing outcomes), never
 * waited for inside. LinkedIn has no idempotency key: a lost create is found among a page's posts,
 * and for a member it is sent again with the same body, which LinkedIn refuses as a duplicate naming
 * the post it made (a duplicate made since the attempt began is the attempt's own post).
 */
export const make = (deps: { readonly api: LinkedInApi; readonly blobs: BlobStoreShape }): Publisher => {
  const settle = (
    result: CreateResult,
    startedAt: number,
    url: (urn: string) => string | null
  ): Effect.Effect<PublishOutcome, PublishError> => {
    switch (result._tag) {
      case "Created":
        return Effect.succeed(published(result.urn, url(result.urn)))
      case "Duplicate": {
        const at = createdAtOf(result.urn)
        return at !== null && at >= startedAt - CLOCK_SKEW_MS
          ? Effect.succeed(published(result.urn, url(result.urn)))
          : Effect.fail(result.error)
      }
      case "Refused":
        return Effect.fail(result.error)
      case "Unknown":
        // LinkedIn may have made it: the pipeline keeps the checkpoint and asks `recover` before any new call.
        return Effect.fail(
          PublishError.outcomeUnknown({ message: `The outcome of the LinkedIn call is unknown: ${result.why}` })
        )
    }
  }

  const post = (
    request: PublishRequest,
    acting: Acting,
    handle: LinkedInHandle,
    media: Extract<LinkedInHandle, { stage: "ready" }> | null
  ) =>
    Effect.flatMap(deps.api.createPost(acting, postBody(request, acting.author, media)), (r) =>
      settle(r, handle.startedAt, postUrl)
    )

  /** Uploads the post's media; the next call posts (images) or polls LinkedIn's processing (a video). */
  const upload = (request: PublishRequest, acting: Acting, handle: LinkedInHandle) =>
    Effect.gen(function* () {
      const video = request.media.find((m) => m.type === "video")
      if (video !== undefined) {
        const urn = yield* uploadVideo(deps.api, deps.blobs, acting, video, request.coverMedia ?? null)
        return processing(
          { v: 1, stage: "processing", startedAt: handle.startedAt, video: urn, polls: 0 },
          pollDelayMs(0)
        )
      }
      const ids = yield* uploadImages(deps.api, deps.blobs, acting, request.media)
      return processing(
        { v: 1, stage: "ready", startedAt: handle.startedAt, kind: ids.length === 1 ? "image" : "images", ids },
        0
      )
    })

  /** One look at LinkedIn's processing of the video: wait more, failed, or ready (the post goes on the next call). */
  const poll = (acting: Acting, handle: Extract<LinkedInHandle, { stage: "processing" }>) =>
    Effect.flatMap(deps.api.video(acting, handle.video), (state): Effect.Effect<PublishOutcome, PublishError> => {
      if (state.status === "AVAILABLE")
        return Effect.succeed(
          processing({ v: 1, stage: "ready", startedAt: handle.startedAt, kind: "video", ids: [handle.video] }, 0)
        )
      if (state.status === "PROCESSING_FAILED")
        return Effect.fail(
          PublishError.refused({
            code: "upstream_rejected",
            message: `LinkedIn could not process the video: ${state.processingFailureReason ?? "processing failed"}`
          })
        )
      return Effect.succeed(processing({ ...handle, polls: handle.polls + 1 }, pollDelayMs(handle.polls + 1)))
    })

  const comment = (request: PublishRequest, acting: Acting, handle: LinkedInHandle, postUrn: string) =>
    Effect.flatMap(deps.api.comment(acting, postUrn, request.content), (r) => settle(r, handle.startedAt, () => null))

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(decodeHandle(handleText), () => sending(now))
      if (request.replyTo !== null) return yield* comment(request, acting, handle, request.replyTo.parentId)
      switch (handle.stage) {
        case "sending":
          return yield* request.media.length === 0
            ? post(request, acting, handle, null)
            : upload(request, acting, handle)
        case "processing":
          return yield* poll(acting, handle)
        case "ready":
          return yield* post(request, acting, handle, handle)
      }
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const found = decodeHandle(handleText)
      if (Option.isNone(found)) return { _tag: "Unknown" } satisfies Recovery
      const handle = found.value
      const acting = yield* actingOf(request)
      const since = handle.startedAt - CLOCK_SKEW_MS
      if (request.replyTo !== null) {
        if (!isPage(acting.author)) return { _tag: "Unknown" } satisfies Recovery
        const comments = yield* deps.api.comments(acting, request.replyTo.parentId)
        const mine = comments.elements.find((c) => c.actor === acting.author && c.message?.text === request.content)
        const urn = mine?.$URN ?? mine?.id
        return urn === undefined
          ? ({ _tag: "NotPublished" } satisfies Recovery)
          : ({ _tag: "Published", published: { externalId: urn, url: null } } satisfies Recovery)
      }
      // Uploading and processing send no post.
      if (handle.stage === "processing" || (handle.stage === "sending" && request.media.length > 0))
        return { _tag: "NotPublished" } satisfies Recovery
      if (!isPage(acting.author))
        // Members cannot read their posts back; sent again, the same body is refused as a duplicate naming the post.
        return request.content.trim() === ""
          ? ({ _tag: "Unknown" } satisfies Recovery)
          : ({ _tag: "NotPublished" } satisfies Recovery)
      const commentary = toLittleText(request.content)
      const posts = yield* deps.api.recentPosts(acting)
      const made = posts.elements.find(
        (p) => p.commentary === commentary && (p.createdAt ?? createdAtOf(p.id) ?? 0) >= since
      )
      return made === undefined
        ? ({ _tag: "NotPublished" } satisfies Recovery)
        : ({ _tag: "Published", published: { externalId: made.id, url: postUrl(made.id) } } satisfies Recovery)
    })

  return {
    platform: "linkedin",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(sending(now))),
    publish,
    recover,
    // LinkedIn removes a post's comments with it, and the post is removed last: a first comment needs no call of its own.
    unpublish: (request) =>
      request.kind === "comment"
        ? Effect.void
        : Effect.flatMap(actingOf(request), (acting) => deps.api.deletePost(acting, request.externalId))
  }
}
