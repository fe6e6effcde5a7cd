import { Effect, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import * as X from "../../../adapters/networks/x/index.ts"
import type { XConfig } from "../../../adapters/networks/x/config.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { FakeX } from "./fakeX.ts"

export const CALLBACK = "http://herald.test/connect/x/callback"

/** X's settings pointing every host at the fake. */
export const settingsFor = (fake: FakeX): XConfig => ({
  clientId: fake.clientId,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  uploadUrl: fake.origin
})

/** A fresh X network (its own rate gate) on the fake, with a memory blob store for uploads. */
export const xOn = (fake: FakeX) =>
  Effect.map(MemoryBlobStore.make("http://herald.test", HmacFileLinks.make("test")), ({ store }) => ({ network: X.make(settingsFor(fake), store), blobs: store }))

/** Herald's clock (TestClock) and the fake's, set to the same instant. */
export const setNow = (fake: FakeX, ms: number) =>
  Effect.andThen(
    TestClock.setTime(ms),
    Effect.sync(() => void (fake.state.clock = ms))
  )

export const T0 = Date.parse("2026-11-21T10:00:00Z")

/** The browser part of connecting: opens the authorize URL; the fake answers with a redirect to the callback. */
export const authorize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
    return Object.fromEntries(new URL(response.headers.get("location")!).searchParams) as Record<string, string>
  })

/** Connects the fake's approving user through the connector, as Herald's callback does. */
export const connect = (network: Network, state = "state-1") =>
  Effect.gen(function* () {
    const begun = yield* network.connector.begin({ state, callbackUrl: CALLBACK, formUrl: "http://herald.test/connect/x/form" })
    const params = yield* authorize(begun.url)
    const [connection] = yield* network.connector.complete({ params, callbackUrl: CALLBACK, verifier: begun.verifier })
    return connection
  })

export const account = (externalId = "1001", username = "alice"): Account => ({
  id: "acc_x1",
  workspaceId: "ws_1",
  platform: "x",
  name: "Alice Example",
  username,
  avatarUrl: null,
  status: "connected",
  connectedAt: T0,
  externalId
})

export const request = (credentials: NetworkCredentials, fields: Partial<PublishRequest> = {}): PublishRequest => ({
  account: account(),
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
    const data = new Uint8Array(bytes).map((_, i) => i % 251)
    // Stored in 1 MB pieces, as a stream of uploads arrives.
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
