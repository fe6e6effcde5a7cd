import { Effect, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import type { YouTubeConfig } from "../../../adapters/networks/youtube/config.ts"
import * as YouTube from "../../../adapters/networks/youtube/index.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { FakeYouTube } from "./fakeYouTube.ts"

export const CALLBACK = "http://herald.test/connect/youtube/callback"
export const T0 = Date.parse("2026-11-21T10:00:00Z")
export const CHUNK = 256 * 1024

export const settingsFor = (fake: FakeYouTube, over: Partial<YouTubeConfig> = {}): YouTubeConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  uploadUrl: fake.origin,
  chunkBytes: CHUNK,
  dailyUploads: 100,
  dailyUnits: 10_000,
  ...over
})

export const youTubeOn = (fake: FakeYouTube, over: Partial<YouTubeConfig> = {}) =>
  Effect.map(MemoryBlobStore.make("http://herald.test", HmacFileLinks.make("test")), ({ store }) => ({ network: YouTube.make(settingsFor(fake, over), store), blobs: store }))

export const setNow = (fake: FakeYouTube, ms: number) =>
  Effect.andThen(
    TestClock.setTime(ms),
    Effect.sync(() => void (fake.state.clock = ms))
  )

export const authorize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
    return Object.fromEntries(new URL(response.headers.get("location")!).searchParams) as Record<string, string>
  })

export const connect = (fake: FakeYouTube, network: Network, as = "g-alice") =>
  Effect.gen(function* () {
    fake.state.authorizeAs = as
    const begun = yield* network.connector.begin({ state: "st", callbackUrl: CALLBACK, formUrl: "" })
    const params = yield* authorize(begun.url)
    const [connection] = yield* network.connector.complete({ params, callbackUrl: CALLBACK, verifier: begun.verifier })
    return connection
  })

export const accountOf = (connection: Connection): Account => ({
  id: "acc_yt",
  workspaceId: "ws_1",
  platform: "youtube",
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
  content: "My first video\nA longer description <3",
  media: [],
  poll: null,
  cover: null,
  coverMedia: null,
  tiktokAiGenerated: false,
  replyTo: null,
  ...fields
})

let blobCounter = 0
/** `bytes` bytes of a recognisable pattern stored in `blobs`; the Media and the bytes' SHA-256 (to compare with what YouTube got). */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.gen(function* () {
    const key = `media/${++blobCounter}`
    const data = new Uint8Array(bytes).map((_, i) => (i * 31 + blobCounter) % 253)
    const pieces = Array.from({ length: Math.ceil(bytes / 100_000) }, (_, i) => data.subarray(i * 100_000, (i + 1) * 100_000))
    yield* blobs.put(key, Stream.fromArray(pieces), mimeType)
    const media: Media = {
      id: `med_${blobCounter}`,
      workspaceId: "ws_1",
      type,
      mimeType,
      filename: `clip${blobCounter}.mp4`,
      sizeBytes: bytes,
      width: 10,
      height: 10,
      durationMs: type === "video" ? 5000 : null,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    const { createHash } = yield* Effect.promise(() => import("node:crypto"))
    return { media, sha256: createHash("sha256").update(data).digest("hex") }
  })

export const publishThrough = (network: Network, req: PublishRequest, handle?: string) =>
  Effect.gen(function* () {
    const outcomes: Array<PublishOutcome> = []
    let next = handle
    for (let i = 0; i < 30; i++) {
      const outcome = yield* network.publisher.publish(req, next)
      outcomes.push(outcome)
      if (outcome._tag === "Published") return outcomes
      next = outcome.handle
    }
    throw new Error("still processing after 30 calls")
  })

export const publishedOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Published") throw new Error(`expected Published, got ${outcome._tag}`)
  return outcome.published
}
