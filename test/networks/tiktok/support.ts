import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import sharp from "sharp"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import type { TikTokConfig } from "../../../adapters/networks/tiktok/config.ts"
import * as TikTok from "../../../adapters/networks/tiktok/index.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { FakeTikTok } from "./fakeTikTok.ts"

export const CALLBACK = "http://herald.test/connect/tiktok/callback"
export const T0 = Date.parse("2026-11-21T10:00:00Z")
export const MB5 = 5 * 1024 * 1024

export const settingsFor = (fake: FakeTikTok, over: Partial<TikTokConfig> = {}): TikTokConfig => ({
  clientKey: fake.clientKey,
  clientSecret: Redacted.make(fake.clientSecret),
  authorizeUrl: fake.authorizeUrl,
  tokenUrl: fake.tokenUrl,
  apiUrl: fake.origin,
  chunkBytes: MB5,
  ...over
})

/**
 * A memory blob store whose URLs a local server answers (as Herald's /files route does), so the
 * fake TikTok can pull photos from them.
 */
export const servedBlobs = Effect.acquireRelease(
  Effect.gen(function* () {
    let store: BlobStoreShape | null = null
    const server = createServer((req, res) => {
      // The path names the key; the signed link's query (expiry, signature) is Herald's own route's business.
      const key = decodeURIComponent(new URL(req.url ?? "/", "http://blobs").pathname.replace(/^\/files\//, ""))
      Effect.runPromise(
        Effect.gen(function* () {
          const info = yield* store!.stat(key)
          const chunks = yield* Stream.runCollect(store!.get(key))
          res.writeHead(200, { "content-type": info.contentType })
          for (const c of chunks) res.write(c)
          res.end()
        })
      ).catch(() => {
        res.writeHead(404)
        res.end()
      })
    })
    yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    store = (yield* MemoryBlobStore.make(origin, HmacFileLinks.make("test"))).store
    return { store, origin, server }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

export const tiktokOn = (fake: FakeTikTok, over: Partial<TikTokConfig> = {}) =>
  Effect.gen(function* () {
    const { store, origin } = yield* servedBlobs
    fake.state.verifiedPrefixes = [`${origin}/files/`]
    return { network: TikTok.make(settingsFor(fake, over), store), blobs: store }
  })

export const setNow = (fake: FakeTikTok, ms: number) =>
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

export const connect = (fake: FakeTikTok, network: Network, as = "u-alice") =>
  Effect.gen(function* () {
    fake.state.authorizeAs = as
    const begun = yield* network.connector.begin({ state: "st", callbackUrl: CALLBACK, formUrl: "" })
    const [connection] = yield* network.connector.complete({ params: yield* authorize(begun.url), callbackUrl: CALLBACK, verifier: begun.verifier })
    return connection
  })

export const accountOf = (connection: Connection): Account => ({
  id: "acc_tt",
  workspaceId: "ws_1",
  platform: "tiktok",
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
  content: "New video #herald",
  media: [],
  poll: null,
  cover: null,
  coverMedia: null,
  tiktokAiGenerated: false,
  replyTo: null,
  ...fields
})

let blobCounter = 0
export const video = (blobs: BlobStoreShape, bytes: number, durationMs = 20_000) =>
  Effect.gen(function* () {
    const key = `media/v${++blobCounter}`
    const data = new Uint8Array(bytes).map((_, i) => (i * 13 + blobCounter) % 251)
    yield* blobs.put(key, Stream.fromArray(Array.from({ length: Math.ceil(bytes / 1_000_000) }, (_, i) => data.subarray(i * 1_000_000, (i + 1) * 1_000_000))), "video/mp4")
    const { createHash } = yield* Effect.promise(() => import("node:crypto"))
    const media: Media = {
      id: `med_v${blobCounter}`,
      workspaceId: "ws_1",
      type: "video",
      mimeType: "video/mp4",
      filename: "v.mp4",
      sizeBytes: bytes,
      width: 1080,
      height: 1920,
      durationMs,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    return { media, sha256: createHash("sha256").update(data).digest("hex") }
  })

export const photo = (blobs: BlobStoreShape, format: "jpeg" | "png" = "jpeg") =>
  Effect.gen(function* () {
    const key = `media/p${++blobCounter}.${format}`
    const bytes = yield* Effect.promise(() =>
      sharp({ create: { width: 108, height: 192, channels: 3, background: "#3a7" } })
        [format]()
        .toBuffer()
    )
    yield* blobs.put(key, Stream.make(new Uint8Array(bytes)), `image/${format}`)
    const media: Media = {
      id: `med_p${blobCounter}`,
      workspaceId: "ws_1",
      type: "image",
      mimeType: `image/${format}`,
      filename: `p.${format}`,
      sizeBytes: bytes.length,
      width: 108,
      height: 192,
      durationMs: null,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    return media
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
