import { openAsBlob } from "node:fs"
import type { $Typed, AppBskyEmbedExternal, AppBskyEmbedImages, AppBskyEmbedVideo } from "@atproto/api"
import { Effect, Option, Stream } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import { PublishError, type PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { type BlueskyAccount, bearer } from "./client.ts"
import { isRateLimited, isSessionRefused } from "./errors.ts"
import { fitImage } from "./images.ts"
import { readCard, readImage } from "./linkCard.ts"
import type { Failure, RepoCalls } from "./repoCalls.ts"

const MAX_IMAGES = 4

type Embed = $Typed<AppBskyEmbedImages.Main> | $Typed<AppBskyEmbedVideo.Main> | $Typed<AppBskyEmbedExternal.Main>

export const rejected = (message: string) => PublishError.refused({ code: "upstream_rejected", message })

/** A post's embed, its blobs uploaded: its video, else its images, else a card for its first link. */
export const makeEmbeds = (blobs: BlobStoreShape, write: RepoCalls["write"]) => {
  const bytesOf = (media: Media) =>
    Stream.runFold(
      blobs.get(media.blobKey),
      () => [] as Array<Uint8Array>,
      (chunks, chunk) => (chunks.push(chunk), chunks)
    ).pipe(
      Effect.map((chunks) => Buffer.concat(chunks)),
      Effect.mapError((e) =>
        e._tag === "BlobNotFound"
          ? rejected(`The upload ${media.id} is gone from storage; upload it again.`)
          : PublishError.unavailable({ message: `Herald could not read the upload ${media.id}: ${e.reason}` })
      )
    )

  const uploadBlob = (
    account: BlueskyAccount,
    token: string,
    data: Uint8Array | Blob,
    encoding: string,
    long = false
  ) =>
    Effect.map(
      write(
        account,
        (agent, signal) => agent.com.atproto.repo.uploadBlob(data, { encoding, signal, headers: bearer(token) }),
        { long }
      ),
      (r) => r.data.blob
    )

  const imagesEmbed = (account: BlueskyAccount, token: string, images: ReadonlyArray<Media>) =>
    Effect.map(
      Effect.forEach(
        images.slice(0, MAX_IMAGES),
        (media) =>
          Effect.gen(function* () {
            const input = yield* bytesOf(media)
            const image = yield* Effect.tryPromise({
              try: () => fitImage(input),
              catch: (e) => rejected(`The image ${media.id} could not be prepared for Bluesky: ${(e as Error).message}`)
            })
            const blob = yield* uploadBlob(account, token, image.bytes, image.mimeType)
            return {
              image: blob,
              alt: "",
              aspectRatio: { width: image.width, height: image.height }
            } satisfies AppBskyEmbedImages.Image
          }),
        { concurrency: 2 }
      ),
      (list): Embed => ({ $type: "app.bsky.embed.images", images: list })
    )

  const videoEmbed = (account: BlueskyAccount, token: string, media: Media) =>
    Effect.gen(function* () {
      if (media.mimeType !== "video/mp4")
        return yield* Effect.fail(rejected(`Bluesky takes MP4 videos only; ${media.filename} is ${media.mimeType}.`))
      // A local file is sent from disk as it is read; other stores' bytes are gathered first.
      const local = blobs.localPath(media.blobKey)
      const data: Blob | Uint8Array = Option.isSome(local)
        ? yield* Effect.tryPromise({
            try: () => openAsBlob(local.value, { type: "video/mp4" }),
            catch: () => rejected(`The upload ${media.id} cannot be read.`)
          })
        : yield* bytesOf(media)
      const video = yield* uploadBlob(account, token, data, "video/mp4", true)
      const aspectRatio =
        media.width && media.height ? { aspectRatio: { width: media.width, height: media.height } } : {}
      return { $type: "app.bsky.embed.video", video, ...aspectRatio } as Embed
    })

  /** The card's picture, uploaded; none when it cannot be read or Bluesky refuses it (the card goes without). */
  const thumbOf = (account: BlueskyAccount, token: string, imageUrl: string) =>
    Effect.gen(function* () {
      const bytes = yield* readImage(imageUrl)
      const image = bytes === null ? null : yield* Effect.promise(() => fitImage(bytes).catch(() => null))
      if (image === null) return null
      return yield* uploadBlob(account, token, image.bytes, image.mimeType).pipe(
        Effect.catch((f) =>
          f instanceof PublishError || !f.answered || f.status >= 500 || isRateLimited(f) || isSessionRefused(f)
            ? Effect.fail(f)
            : Effect.succeed(null)
        )
      )
    })

  /** A card for the link: the page's OpenGraph title, description and picture; none when the page cannot be read. */
  const cardEmbed = (account: BlueskyAccount, token: string, uri: string) =>
    Effect.gen(function* () {
      const card = yield* readCard(uri)
      if (card === null) return null
      const thumb = card.imageUrl === null ? null : yield* thumbOf(account, token, card.imageUrl)
      return {
        $type: "app.bsky.embed.external",
        external: { uri, title: card.title, description: card.description, ...(thumb === null ? {} : { thumb }) }
      } satisfies Embed
    })

  const embedFor = (
    account: BlueskyAccount,
    token: string,
    request: PublishRequest,
    firstLink: string | null
  ): Effect.Effect<Embed | null, Failure> => {
    const video = request.media.find((m) => m.type === "video")
    if (video !== undefined) return videoEmbed(account, token, video)
    const images = request.media.filter((m) => m.type === "image")
    if (images.length > 0) return imagesEmbed(account, token, images)
    return firstLink === null ? Effect.succeed(null) : cardEmbed(account, token, firstLink)
  }

  return embedFor
}
