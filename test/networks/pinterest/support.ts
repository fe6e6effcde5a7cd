import { createHash } from "node:crypto"
import { Effect, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import type { PinterestConfig } from "../../../adapters/networks/pinterest/config.ts"
import * as Pinterest from "../../../adapters/networks/pinterest/index.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { FakePinterest } from "./fakePinterest.ts"

export const CALLBACK = "http://herald.test/connect/pinterest/callback"
export const T0 = Date.parse("2026-11-21T10:00:00Z")

export const settingsFor = (fake: FakePinterest): PinterestConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin
})

export const pinterestOn = (fake: FakePinterest) =>
  Effect.map(MemoryBlobStore.make("http://herald.test", HmacFileLinks.make("test")), ({ store }) => ({ network: Pinterest.make(settingsFor(fake), store), blobs: store }))

export const setNow = (fake: FakePinterest, ms: number) =>
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

export const connect = (fake: FakePinterest, network: Network, as = "p-alice") =>
  Effect.gen(function* () {
    fake.state.authorizeAs = as
    const begun = yield* network.connector.begin({ state: "st", callbackUrl: CALLBACK, formUrl: "" })
    const [connection] = yield* network.connector.complete({ params: yield* authorize(begun.url), callbackUrl: CALLBACK, verifier: begun.verifier })
    return connection
  })

export const accountOf = (connection: Connection): Account => ({
  id: "acc_pin",
  workspaceId: "ws_1",
  platform: "pinterest",
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
  content: "Lemon tart, step by step",
  media: [],
  poll: null,
  cover: null,
  coverMedia: null,
  tiktokAiGenerated: false,
  replyTo: null,
  ...fields
})

let counter = 0
export const upload = (blobs: BlobStoreShape, type: "image" | "video", mimeType: string, bytes: number) =>
  Effect.gen(function* () {
    const key = `media/${++counter}`
    const data = new Uint8Array(bytes).map((_, i) => (i * 17 + counter) % 251)
    yield* blobs.put(key, Stream.make(data), mimeType)
    const media: Media = {
      id: `med_${counter}`,
      workspaceId: "ws_1",
      type,
      mimeType,
      filename: `f${counter}`,
      sizeBytes: bytes,
      width: 600,
      height: 900,
      durationMs: type === "video" ? 8000 : null,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    return { media, sha256: createHash("sha256").update(data).digest("hex") }
  })

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
