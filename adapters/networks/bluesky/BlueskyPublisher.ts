import { openAsBlob } from "node:fs"
import {
  type $Typed,
  type Agent,
  type AppBskyEmbedExternal,
  type AppBskyEmbedImages,
  type AppBskyEmbedVideo,
  type AppBskyFeedPost,
  AtUri
} from "@atproto/api"
import { TID } from "@atproto/common-web"
import { Clock, Effect, Option, Stream } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { accountOf, type BlueskyAccount, type BlueskyClient, bearer } from "./client.ts"
import {
  isRateLimited,
  isRecordNotFound,
  isSessionRefused,
  publishErrorOf,
  throttled,
  waitFromHeaders,
  type XrpcFailure
} from "./errors.ts"
import { fitImage } from "./images.ts"
import { readCard, readImage } from "./linkCard.ts"
import type { RateGate } from "./rateGate.ts"
import { detectFacets } from "./richText.ts"

const POST = "app.bsky.feed.post"
const MAX_IMAGES = 4
/** When a video is still being processed and Bluesky gives no time, look again after this long. */
const PROCESSING_RECHECK_MS = 15_000

type Embed = $Typed<AppBskyEmbedImages.Main> | $Typed<AppBskyEmbedVideo.Main> | $Typed<AppBskyEmbedExternal.Main>
type Failure = XrpcFailure | PublishError
interface StrongRef {
  readonly uri: string
  readonly cid: string
}

/** The post's public page on bsky.app. */
export const postUrl = (handle: string, rkey: string) => `https://bsky.app/profile/${handle}/post/${rkey}`

/** Bluesky says the uploaded media is not ready yet (a video being processed): come back later, same record key. */
export const isStillProcessing = (f: XrpcFailure) =>
  f.answered && f.status < 500 && /processing|not ready/i.test(`${f.error} ${f.message}`)

const rejected = (message: string) => PublishError.refused({ code: "upstream_rejected", message })

export interface PublisherDeps {
  readonly client: BlueskyClient
  readonly blobs: BlobStoreShape
  /** Per-account pauses after Bluesky's rate limits. */
  readonly gate: RateGate
}

/**
 * Posts as app.bsky.feed.post records in the account's repository, under a record key (TID) chosen
 * before the call: a lost answer is settled by reading that key back, and a repeated call with it
 * can never make a second post.
 */
export const makePublisher = ({ client, blobs, gate }: PublisherDeps): Publisher => {
  /**
   * One write for `account` (Bluesky limits writes per account), after its rate-limit pause: none is
   * made during one; the answer's headers set the next pause. Reads (limited per address) go straight.
   */
  const write = <A extends { readonly headers: Readonly<Record<string, string | undefined>> }>(
    account: BlueskyAccount,
    run: (agent: Agent, signal: AbortSignal) => Promise<A>,
    options: { readonly long?: boolean } = {}
  ): Effect.Effect<A, Failure> =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const wait = gate.waitFor(account.did, now)
      if (wait > 0) return yield* Effect.fail(throttled(wait))
      const learn = (headers: Readonly<Record<string, string | undefined>>, limited: boolean) => {
        if (!limited && headers["ratelimit-remaining"] !== "0") return
        const waitMs = waitFromHeaders(headers, Date.now())
        if (waitMs !== undefined) gate.closeUntil(account.did, now + waitMs)
      }
      return yield* client.call(run, account.pdsUrl, options).pipe(
        Effect.tap((r) => Effect.sync(() => learn(r.headers, false))),
        Effect.tapError((f) => Effect.sync(() => learn(f.headers, isRateLimited(f))))
      )
    })

  const read = <A>(
    account: BlueskyAccount,
    run: (agent: Agent, signal: AbortSignal) => Promise<A>
  ): Effect.Effect<A, Failure> => client.call(run, account.pdsUrl)

  const readRecord = (account: BlueskyAccount, repo: string, rkey: string) =>
    read(account, (agent, signal) =>
      agent.com.atproto.repo.getRecord({ repo, collection: POST, rkey }, { signal })
    ).pipe(
      Effect.map((r): Option.Option<StrongRef> => Option.some({ uri: r.data.uri, cid: r.data.cid! })),
      Effect.catch((f) =>
        !(f instanceof PublishError) && isRecordNotFound(f) ? Effect.succeed(Option.none<StrongRef>()) : Effect.fail(f)
      )
    )

  /** The record an at:// URI names, as a strong reference (URI and CID) for a reply. */
  const strongRef = (account: BlueskyAccount, uri: string) =>
    Effect.gen(function* () {
      const at = yield* Effect.try({
        try: () => new AtUri(uri),
        catch: () => rejected(`Herald cannot reply to ${uri}: it is not a Bluesky post URI.`)
      })
      const found = yield* readRecord(account, at.host, at.rkey)
      if (Option.isNone(found))
        return yield* Effect.fail(rejected(`The post being replied to (${uri}) is gone from Bluesky.`))
      return found.value
    })

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

  const resolveDid = (account: BlueskyAccount) => (handle: string) =>
    read(account, (agent, signal) => agent.com.atproto.identity.resolveHandle({ handle }, { signal })).pipe(
      Effect.map((r): string | null => r.data.did),
      // A handle nobody has stays plain text; a rate limit is still a rate limit.
      Effect.catch((f) => (f instanceof PublishError || isRateLimited(f) ? Effect.fail(f) : Effect.succeed(null)))
    )

  const publishWith = (
    request: PublishRequest,
    account: BlueskyAccount,
    token: string,
    rkey: string
  ): Effect.Effect<PublishOutcome, Failure> =>
    Effect.gen(function* () {
      const reply =
        request.replyTo === null
          ? null
          : yield* Effect.gen(function* () {
              const root = yield* strongRef(account, request.replyTo!.rootId)
              const parent =
                request.replyTo!.parentId === request.replyTo!.rootId
                  ? root
                  : yield* strongRef(account, request.replyTo!.parentId)
              return { root, parent }
            })
      const { facets, firstLink } = yield* detectFacets(request.content, resolveDid(account))
      const embed = yield* embedFor(account, token, request, firstLink)
      const record: AppBskyFeedPost.Record = {
        $type: POST,
        text: request.content,
        createdAt: new Date().toISOString(),
        ...(facets.length > 0 ? { facets: [...facets] } : {}),
        ...(embed === null ? {} : { embed }),
        ...(reply === null ? {} : { reply })
      }
      const created = yield* write(account, (agent, signal) =>
        agent.com.atproto.repo.createRecord(
          { repo: account.did, collection: POST, rkey, record },
          { signal, headers: bearer(token) }
        )
      ).pipe(
        Effect.map((r): StrongRef => ({ uri: r.data.uri, cid: r.data.cid })),
        Effect.catch((f) =>
          f instanceof PublishError || !(f.status >= 500 || !f.answered) ? Effect.fail(f) : settle(account, rkey, f)
        )
      )
      return published(created.uri, postUrl(account.handle, rkey))
    })

  /**
   * The create failed without a clear refusal (a 5xx, which is also how a PDS answers a record key
   * already taken, or no answer at all): the post may be there. Read the key back; if it is not
   * there, the outcome is left unknown (a defect), so the pipeline keeps the key and asks again
   * rather than post under a new one.
   */
  const settle = (account: BlueskyAccount, rkey: string, failure: XrpcFailure) =>
    readRecord(account, account.did, rkey).pipe(
      Effect.catch(() => Effect.succeed(Option.none<StrongRef>())),
      Effect.flatMap((found) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : Effect.fail(
              PublishError.outcomeUnknown({
                message: `Bluesky's answer to the post was lost (${failure.message}); record key ${rkey} is checked next time.`
              })
            )
      )
    )

  const sessionOf = (request: Pick<PublishRequest, "credentials">) => {
    const account = accountOf(request.credentials)
    return account === null || request.credentials === null
      ? Effect.fail(
          PublishError.revoked({ message: "Herald holds no Bluesky session for this account; reconnect it." })
        )
      : Effect.succeed({ account, token: request.credentials.accessToken })
  }

  const toPublishError = (f: Failure) => (f instanceof PublishError ? f : publishErrorOf(f))

  return {
    platform: "bluesky",
    prepare: () => Effect.sync(() => TID.nextStr()),
    publish: (request, handle) =>
      Effect.gen(function* () {
        const { account, token } = yield* sessionOf(request)
        return yield* publishWith(request, account, token, handle ?? TID.nextStr()).pipe(
          Effect.catch(
            (f): Effect.Effect<PublishOutcome, Failure> =>
              !(f instanceof PublishError) && isStillProcessing(f) && handle !== undefined
                ? Effect.succeed({
                    _tag: "Processing",
                    handle,
                    checkAfterMs: waitFromHeaders(f.headers, Date.now()) ?? PROCESSING_RECHECK_MS
                  })
                : Effect.fail(f)
          )
        )
      }).pipe(Effect.mapError(toPublishError)),
    // com.atproto.repo.deleteRecord: the post, its replies and its first comment are records of the
    // account's repository; deleting a record already gone succeeds, as the port wants.
    unpublish: (request) =>
      Effect.gen(function* () {
        const { account, token } = yield* sessionOf(request)
        const at = yield* Effect.try({
          try: () => new AtUri(request.externalId),
          catch: () => rejected(`Herald cannot remove ${request.externalId}: it is not a Bluesky post URI.`)
        })
        yield* write(account, (agent, signal) =>
          agent.com.atproto.repo.deleteRecord(
            { repo: account.did, collection: at.collection, rkey: at.rkey },
            { signal, headers: bearer(token) }
          )
        )
      }).pipe(Effect.mapError(toPublishError)),
    recover: (request, handle) =>
      handle === null
        ? Effect.succeed<Recovery>({ _tag: "Unknown" })
        : Effect.gen(function* () {
            const { account } = yield* sessionOf(request)
            const found = yield* readRecord(account, account.did, handle)
            return Option.isSome(found)
              ? ({
                  _tag: "Published",
                  published: { externalId: found.value.uri, url: postUrl(account.handle, handle) }
                } satisfies Recovery)
              : ({ _tag: "NotPublished" } satisfies Recovery)
          }).pipe(Effect.mapError(toPublishError))
  }
}
