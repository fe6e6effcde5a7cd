import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import {
  type Published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import {
  type ContainerApi,
  type ContainerPlan,
  type Containers,
  decodeHandle,
  encodeHandle,
  freshHandle,
  recover,
  step
} from "../meta/containers.ts"
import { createdId, type Graph } from "../meta/graph.ts"
import { fetchableUrl } from "../shared/media.ts"
import { CLOCK_SKEW_MS, findByText, metaTime } from "../meta/posts.ts"
import { type Acting, api, type MediaItem, type Quota } from "./api.ts"
import { networkRules } from "../../../domain/networkRules.ts"
import { inAcceptedFormat } from "../shared/images.ts"

/** Which Graph host an account's token belongs to: Instagram Login's, or Facebook Login's (a Page token). */
export interface Hosts {
  readonly instagram: Graph | null
  readonly facebook: Graph | null
}

const reconnect = (message: string) => PublishError.revoked({ message })

export const actingOf = (
  hosts: Hosts,
  account: Account,
  credentials: NetworkCredentials | null
): Effect.Effect<Acting, PublishError> => {
  if (credentials === null) return Effect.fail(reconnect("The Instagram account has no stored access."))
  const viaFacebook = credentials.extra?.login === "facebook"
  const graph = viaFacebook ? hosts.facebook : hosts.instagram
  if (graph === null)
    return Effect.fail(
      PublishError.refused({
        code: "platform_unavailable",
        message: `This Instagram account was connected through ${viaFacebook ? "Facebook Login, which is no longer configured (FACEBOOK_CLIENT_ID)" : "Instagram Login, which is no longer configured (INSTAGRAM_CLIENT_ID)"}.`
      })
    )
  return Effect.succeed({ userId: account.externalId, token: credentials.accessToken, graph })
}

const isStory = (request: PublishRequest) => request.options?.instagram?.story === true

/** The containers a post needs: one image, one reel (with its cover), a carousel of 2 to 10 items, or one story. */
const containersOf = (blobs: BlobStoreShape, request: PublishRequest): Effect.Effect<Containers, PublishError> =>
  Effect.gen(function* () {
    const media = request.media
    if (media.length === 0)
      return yield* Effect.fail(
        PublishError.refused({ code: "media_required", message: "Instagram posts need an image or a video." })
      )
    // Instagram takes JPEG only: other images go as a converted copy (its rules row names the formats).
    const urlOf = (m: Media) =>
      Effect.flatMap(inAcceptedFormat(blobs, networkRules.instagram, m), (key) => fetchableUrl(blobs, key))
    if (isStory(request)) return yield* storyOf(media, urlOf)
    if (media.length === 1) {
      const only = media[0]!
      if (only.type === "image")
        return { items: [{ image_url: yield* urlOf(only), caption: request.content }], carousel: null }
      // A single video is a reel (the VIDEO type no longer works for single posts).
      const cover: Record<string, string> =
        request.cover === null
          ? {}
          : "offsetMs" in request.cover
            ? { thumb_offset: String(request.cover.offsetMs) }
            : request.coverMedia
              ? { cover_url: yield* urlOf(request.coverMedia) }
              : {}
      return {
        items: [
          {
            media_type: "REELS",
            video_url: yield* urlOf(only),
            caption: request.content,
            share_to_feed: "true",
            ...cover
          }
        ],
        carousel: null
      }
    }
    const items = yield* Effect.forEach(media, (m) =>
      Effect.map(
        urlOf(m),
        (url): Record<string, string> =>
          m.type === "image"
            ? { image_url: url, is_carousel_item: "true" }
            : { media_type: "VIDEO", video_url: url, is_carousel_item: "true" }
      )
    )
    return { items, carousel: { media_type: "CAROUSEL", caption: request.content } }
  })

/** A story's one container: STORIES with the image or the video, and nothing a story does not show (caption, cover). */
const storyOf = (
  media: ReadonlyArray<Media>,
  urlOf: (m: Media) => Effect.Effect<string, PublishError>
): Effect.Effect<Containers, PublishError> => {
  const only = media[0]!
  if (media.length !== 1)
    return Effect.fail(
      PublishError.refused({
        code: "validation_failed",
        message: "An Instagram story is one image or one video, not a carousel."
      })
    )
  return Effect.map(urlOf(only), (url) => ({
    items: [{ media_type: "STORIES", ...(only.type === "image" ? { image_url: url } : { video_url: url }) }],
    carousel: null
  }))
}

const planOf = (blobs: BlobStoreShape, request: PublishRequest): ContainerPlan => ({
  hasVideo: request.media.some((m) => m.type === "video"),
  containers: containersOf(blobs, request)
})

const containerApi = (a: Acting, request: PublishRequest): ContainerApi => ({
  network: "Instagram",
  create: (params) => api.createContainer(a, params),
  status: (container) => api.containerStatus(a, container),
  publish: (container) => api.publishContainer(a, container),
  permalink: (id) => api.permalink(a, id),
  findPublished: (since) =>
    isStory(request)
      ? Effect.map(api.recentStories(a), (items) => onlyStorySince(items, since))
      : Effect.map(api.recentMedia(a), (items) => {
          const found = findByText(
            items,
            request.content,
            since,
            (m) => m.caption,
            (m) => m.timestamp
          )
          return found === null ? null : { externalId: found.id, url: found.permalink ?? null }
        })
})

/** A story has no text to know it by: the one story made since the attempt began, or none when there are several. */
const onlyStorySince = (items: ReadonlyArray<MediaItem>, since: number): Published | null => {
  const made = items.filter((s) => !(metaTime(s.timestamp) < since - CLOCK_SKEW_MS))
  return made.length === 1 ? { externalId: made[0]!.id, url: made[0]!.permalink ?? null } : null
}

/**
 * Publishes to Instagram: one image, one reel (cover image or frame offset), a carousel of 2 to
 * 10, or a story (instagram.story: one image or video, no caption), through containers polled until FINISHED one step per call (meta/containers.ts); first
 * comments are comments on the media. Recovery goes through the container id (PUBLISHED means it
 * went out) or, for a comment, the media's comments.
 */
export const make = (deps: { readonly hosts: Hosts; readonly blobs: BlobStoreShape }) => {
  const comment = (a: Acting, request: PublishRequest) =>
    Effect.flatMap(api.comment(a, request.replyTo!.parentId, request.content), createdId("Instagram", "comment")).pipe(
      Effect.map((id): PublishOutcome => ({ _tag: "Published", published: { externalId: id, url: null } }))
    )

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const a = yield* actingOf(deps.hosts, request.account, request.credentials)
      if (request.replyTo !== null) return yield* comment(a, request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(decodeHandle(handleText), () => freshHandle(now))
      return yield* step(containerApi(a, request), planOf(deps.blobs, request), handle, now)
    })

  const recoverAttempt = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const handle = decodeHandle(handleText)
      if (Option.isNone(handle)) return { _tag: "Unknown" } satisfies Recovery
      const a = yield* actingOf(deps.hosts, request.account, request.credentials)
      if (request.replyTo !== null) {
        const found = findByText(
          yield* api.comments(a, request.replyTo.parentId),
          request.content,
          handle.value.startedAt,
          (c) => c.text,
          (c) => c.timestamp
        )
        return found === null
          ? ({ _tag: "NotPublished" } satisfies Recovery)
          : ({ _tag: "Published", published: { externalId: found.id, url: null } } satisfies Recovery)
      }
      return yield* recover(containerApi(a, request), handle.value)
    })

  const publisher: Publisher = {
    platform: "instagram",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(freshHandle(now))),
    publish,
    recover: recoverAttempt
  }
  return {
    ...publisher,
    /**
     * Meta's 24-hour publishing cap for the account, read from content_publishing_limit. Offered here
     * for the dry run (which has no network hook yet).
     */
    quota: (account: Account, credentials: NetworkCredentials | null): Effect.Effect<Quota, PublishError> =>
      Effect.flatMap(actingOf(deps.hosts, account, credentials), api.quota)
  }
}

export type InstagramPublisher = ReturnType<typeof make>
