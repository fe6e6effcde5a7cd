import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { PublishError, type Publisher, type PublishRequest } from "../../../application/ports/Publishers.ts"
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
import { fetchableUrl } from "../shared/media.ts"
import { findByText } from "../meta/posts.ts"
import type { Acting, Quota, ThreadsApi } from "./api.ts"

const actingOf = (account: Account, credentials: NetworkCredentials | null): Effect.Effect<Acting, PublishError> =>
  credentials === null
    ? Effect.fail(PublishError.revoked({ message: "The Threads account has no stored access." }))
    : Effect.succeed({ userId: account.externalId, token: credentials.accessToken })

const pollOptions = ["option_a", "option_b", "option_c", "option_d"] as const

/**
 * The containers a post needs: text (with a poll when it has one), one image or video, or a
 * carousel of 2 to 20. Thread replies and first comments reply to their parent (`reply_to_id`).
 */
const containersOf = (blobs: BlobStoreShape, request: PublishRequest): Effect.Effect<Containers, PublishError> =>
  Effect.gen(function* () {
    const reply: Record<string, string> = request.replyTo === null ? {} : { reply_to_id: request.replyTo.parentId }
    const media = request.media
    const urlOf = (m: Media) => fetchableUrl(blobs, m.blobKey)
    const item = (m: Media, url: string): Record<string, string> =>
      m.type === "image" ? { media_type: "IMAGE", image_url: url } : { media_type: "VIDEO", video_url: url }
    if (media.length === 0) {
      // Polls go on text posts only (Threads' poll_attachment: 2 to 4 options).
      const poll: Record<string, string> =
        request.poll === null
          ? {}
          : {
              poll_attachment: JSON.stringify(
                Object.fromEntries(request.poll.options.slice(0, 4).map((o, i) => [pollOptions[i], o]))
              )
            }
      return { items: [{ media_type: "TEXT", text: request.content, ...reply, ...poll }], carousel: null }
    }
    if (media.length === 1)
      return {
        items: [{ ...item(media[0]!, yield* urlOf(media[0]!)), text: request.content, ...reply }],
        carousel: null
      }
    const items = yield* Effect.forEach(media, (m) =>
      Effect.map(urlOf(m), (url) => ({ ...item(m, url), is_carousel_item: "true" }))
    )
    return { items, carousel: { media_type: "CAROUSEL", text: request.content, ...reply } }
  })

const planOf = (blobs: BlobStoreShape, request: PublishRequest): ContainerPlan => ({
  hasVideo: request.media.some((m) => m.type === "video"),
  containers: containersOf(blobs, request)
})

const containerApi = (threads: ThreadsApi, a: Acting, request: PublishRequest): ContainerApi => ({
  network: "Threads",
  create: (params) => threads.createContainer(a, params),
  status: (container) => threads.containerStatus(a, container),
  publish: (container) => threads.publishContainer(a, container),
  permalink: (id) => threads.permalink(a, id),
  // Replies (thread replies, first comments) are listed apart from the account's posts.
  findPublished: (since) =>
    Effect.map(threads.recent(a, request.replyTo === null ? "threads" : "replies"), (posts) => {
      const found = findByText(
        posts,
        request.content,
        since,
        (p) => p.text,
        (p) => p.timestamp
      )
      return found === null ? null : { externalId: found.id, url: found.permalink ?? null }
    })
})

/**
 * Publishes to Threads: text (with a poll), one image or video, carousels of 2 to 20; thread
 * replies and first comments are replies (reply_to_id). Every post is a container polled until
 * FINISHED, one step per call, then published; a lost publish is recovered through the container
 * (PUBLISHED) and the account's recent posts or replies.
 */
export const make = (deps: { readonly api: ThreadsApi; readonly blobs: BlobStoreShape }) => {
  const publisher: Publisher = {
    platform: "threads",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(freshHandle(now))),
    // DELETE /{threads-media-id}: a post and each of its replies are media objects of the account.
    unpublish: (request) =>
      Effect.flatMap(actingOf(request.account, request.credentials), (a) =>
        deps.api.graph.remove(request.externalId, a.token, a.userId)
      ),
    publish: (request, handleText) =>
      Effect.gen(function* () {
        const a = yield* actingOf(request.account, request.credentials)
        const now = yield* Clock.currentTimeMillis
        const handle = Option.getOrElse(decodeHandle(handleText), () => freshHandle(now))
        return yield* step(containerApi(deps.api, a, request), planOf(deps.blobs, request), handle, now)
      }),
    recover: (request, handleText) =>
      Effect.gen(function* () {
        const handle = decodeHandle(handleText)
        if (Option.isNone(handle)) return { _tag: "Unknown" as const }
        return yield* recover(
          containerApi(deps.api, yield* actingOf(request.account, request.credentials), request),
          handle.value
        )
      })
  }
  return {
    ...publisher,
    /** Threads' 24-hour caps for the account (250 posts, 1,000 replies), for the dry run (which has no network hook yet). */
    quota: (account: Account, credentials: NetworkCredentials | null): Effect.Effect<Quota, PublishError> =>
      Effect.flatMap(actingOf(account, credentials), deps.api.quota)
  }
}
