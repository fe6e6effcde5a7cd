import { Effect, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import type { LinkedInConfig } from "../../../adapters/networks/linkedin/config.ts"
import * as LinkedIn from "../../../adapters/networks/linkedin/index.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { FakeLinkedIn } from "./fakeLinkedIn.ts"

export const CALLBACK = "http://herald.test/connect/linkedin/callback"
export const T0 = Date.parse("2026-11-21T10:00:00Z")

/** LinkedIn's settings pointing every host at the fake. */
export const settingsFor = (fake: FakeLinkedIn, over: Partial<LinkedInConfig> = {}): LinkedInConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  version: "202607",
  organizations: true,
  ...over
})

/** A fresh LinkedIn network (its own rate gate) on the fake, with a memory blob store for uploads. */
export const linkedInOn = (fake: FakeLinkedIn, over: Partial<LinkedInConfig> = {}) =>
  Effect.map(MemoryBlobStore.make("http://herald.test", HmacFileLinks.make("test")), ({ store }) => ({ network: LinkedIn.make(settingsFor(fake, over), store), blobs: store }))

/** Herald's clock (TestClock) and the fake's, set to the same instant. */
export const setNow = (fake: FakeLinkedIn, ms: number) =>
  Effect.andThen(
    TestClock.setTime(ms),
    Effect.sync(() => void (fake.state.clock = ms))
  )

/** The browser part: opens the authorize URL; the fake redirects to the callback. */
export const authorize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
    return Object.fromEntries(new URL(response.headers.get("location")!).searchParams) as Record<string, string>
  })

/** Connects the fake's approving member through the connector: the member, then the pages. */
export const connect = (network: Network, state = "state-1") =>
  Effect.gen(function* () {
    const begun = yield* network.connector.begin({ state, callbackUrl: CALLBACK, formUrl: "" })
    const params = yield* authorize(begun.url)
    return yield* network.connector.complete({ params, callbackUrl: CALLBACK, verifier: begun.verifier })
  })

export const accountOf = (connection: Connection): Account => ({
  id: `acc_${connection.profile.externalId.split(":").at(-1)}`,
  workspaceId: "ws_1",
  platform: "linkedin",
  name: connection.profile.name,
  username: connection.profile.username,
  avatarUrl: null,
  status: "connected",
  connectedAt: T0,
  externalId: connection.profile.externalId
})

export const request = (account: Account, credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}): PublishRequest => ({
  account,
  credentials,
  postId: "post_1",
  content: "Hello from Herald",
  media: [],
  poll: null,
  cover: null,
  coverMedia: null,
  tiktokAiGenerated: false,
  replyTo: null,
  ...fields
})

let blobCounter = 0
/** An upload of `bytes` bytes stored in `blobs`, as the post's media. */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.gen(function* () {
    const key = `media/${++blobCounter}`
    const data = new Uint8Array(bytes).map((_, i) => (i * 7 + blobCounter) % 251)
    const pieces = Array.from({ length: Math.ceil(bytes / 1_000_000) }, (_, i) => data.subarray(i * 1_000_000, (i + 1) * 1_000_000))
    yield* blobs.put(key, Stream.fromArray(pieces), mimeType)
    const media: Media = {
      id: `med_${blobCounter}`,
      workspaceId: "ws_1",
      type,
      mimeType,
      filename: `f${blobCounter}`,
      sizeBytes: bytes,
      width: 10,
      height: 10,
      durationMs: type === "video" ? 5000 : null,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    return media
  })

/** Runs publish until it stops answering Processing (a test's stand-in for the pipeline's passes). */
export const publishThrough = (network: Network, req: PublishRequest, handle?: string) =>
  Effect.gen(function* () {
    const outcomes: Array<PublishOutcome> = []
    let next = handle
    for (let i = 0; i < 20; i++) {
      const outcome = yield* network.publisher.publish(req, next)
      outcomes.push(outcome)
      if (outcome._tag === "Published") return outcomes
      next = outcome.handle
    }
    throw new Error("still processing after 20 calls")
  })

export const publishedOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Published") throw new Error(`expected Published, got ${outcome._tag}`)
  return outcome.published
}
