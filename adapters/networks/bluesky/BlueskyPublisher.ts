import { type AppBskyFeedPost, AtUri } from "@atproto/api"
import { TID } from "@atproto/common-web"
import { Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import { accountOf, type BlueskyAccount, type BlueskyClient, bearer } from "./client.ts"
import { isRateLimited, publishErrorOf, waitFromHeaders, type XrpcFailure } from "./errors.ts"
import { makeEmbeds, rejected } from "./embeds.ts"
import type { RateGate } from "./rateGate.ts"
import { type Failure, makeRepoCalls, POST, type StrongRef } from "./repoCalls.ts"
import { detectFacets } from "./richText.ts"

/** When a video is still being processed and Bluesky gives no time, look again after this long. */
const PROCESSING_RECHECK_MS = 15_000

/** The post's public page on bsky.app. */
export const postUrl = (handle: string, rkey: string) => `https://bsky.app/profile/${handle}/post/${rkey}`

/** Bluesky says the uploaded media is not ready yet (a video being processed): come back later, same record key. */
export const isStillProcessing = (f: XrpcFailure) =>
  f.answered && f.status < 500 && /processing|not ready/i.test(`${f.error} ${f.message}`)

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
  const { write, read, readRecord } = makeRepoCalls(client, gate)
  const embedFor = makeEmbeds(blobs, write)

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
