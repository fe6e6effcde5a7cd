import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Option, Redacted, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import * as Facebook from "../../../adapters/networks/facebook/index.ts"
import * as Instagram from "../../../adapters/networks/instagram/index.ts"
import type { MetaAppConfig } from "../../../adapters/networks/shared/metaConfig.ts"
import * as Threads from "../../../adapters/networks/threads/index.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { Connection, Connector, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { Platform } from "../../../domain/platforms.ts"
import type { FakeGraph } from "./fakeGraph.ts"

export const T0 = Date.parse("2026-11-21T10:00:00Z")
export const VERSION = "v26.0"

/** Herald's clock (TestClock) and Meta's, set to the same instant. */
export const setNow = (fake: FakeGraph, ms: number) =>
  Effect.andThen(
    TestClock.setTime(ms),
    Effect.sync(() => void (fake.state.clock = ms))
  )

/** One Meta app's settings pointing at the fake. */
export const appFor = (fake: FakeGraph, app: "facebook" | "instagram" | "threads"): MetaAppConfig => {
  const env = fake.env(VERSION)
  const prefix = app.toUpperCase()
  return {
    clientId: env[`${prefix}_CLIENT_ID`]!,
    clientSecret: Redacted.make(env[`${prefix}_CLIENT_SECRET`]!),
    authorizeUrl: env[`${prefix}_AUTHORIZE_URL`]!,
    tokenUrl: env[`${prefix}_TOKEN_URL`]!,
    apiUrl: fake.origin,
    version: app === "threads" ? "v1.0" : VERSION
  }
}

/**
 * Herald's uploads as Meta fetches them: a memory store whose signed /files/ links a small server
 * answers, checking the signature and the expiry against the fake's clock (Herald's own route is
 * exercised end to end).
 */
export const startFiles = async (fake: FakeGraph) => {
  const links = HmacFileLinks.make("meta adapter tests")
  let blobs: BlobStoreShape | null = null
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://files")
    const key = decodeURIComponent(url.pathname.slice("/files/".length))
    const check = links.check(key, url.searchParams.get("expires"), url.searchParams.get("signature"), fake.state.clock ?? Date.now())
    if (check !== "valid") return void res.writeHead(check === "expired" ? 410 : 403).end()
    const bytes = await Effect.runPromise(Effect.option(Stream.runCollect(blobs!.get(key))))
    if (Option.isNone(bytes)) return void res.writeHead(404).end()
    const info = await Effect.runPromise(blobs!.stat(key))
    res.writeHead(200, { "content-type": info.contentType }).end(Buffer.concat(bytes.value.map((c) => Buffer.from(c))))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  blobs = (await Effect.runPromise(MemoryBlobStore.make(origin, links))).store
  return { blobs, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
export type Files = Awaited<ReturnType<typeof startFiles>>

export const facebookOn = (fake: FakeGraph, files: Files) => Facebook.make(appFor(fake, "facebook"), files.blobs)
export const instagramOn = (fake: FakeGraph, files: Files, logins: { instagram?: boolean; facebook?: boolean } = { instagram: true, facebook: true }) =>
  Instagram.make(
    {
      instagram: logins.instagram === false ? Option.none() : Option.some(appFor(fake, "instagram")),
      facebook: logins.facebook === false ? Option.none() : Option.some(appFor(fake, "facebook"))
    },
    files.blobs
  )
export const threadsOn = (fake: FakeGraph, files: Files) => Threads.make(appFor(fake, "threads"), files.blobs)

/** The browser part: opens the authorize URL; the fake answers with a redirect to the callback, whose parameters come back. */
export const authorize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
    return Object.fromEntries(new URL(response.headers.get("location")!).searchParams) as Record<string, string>
  })

export const callbackFor = (platform: Platform) => `http://herald.test/connect/${platform}/callback`

/** Connects through a network's connector as Herald's callback does: every account it gives. */
export const connect = (network: { readonly platform: Platform; readonly connector: Connector }, state = "state-1") =>
  Effect.gen(function* () {
    const callbackUrl = callbackFor(network.platform)
    const begun = yield* network.connector.begin({ state, callbackUrl, formUrl: "" })
    const params = yield* authorize(begun.url)
    return yield* network.connector.complete({ params, callbackUrl, verifier: begun.verifier })
  })

export const accountOf = (platform: Platform, connection: Connection): Account => ({
  id: `acc_${platform}_${connection.profile.externalId}`,
  workspaceId: "ws_1",
  platform,
  name: connection.profile.name,
  username: connection.profile.username,
  avatarUrl: connection.profile.avatarUrl,
  status: "connected",
  connectedAt: T0,
  externalId: connection.profile.externalId
})

export const requestFor = (account: Account, credentials: NetworkCredentials | null, fields: Partial<PublishRequest> = {}): PublishRequest => ({
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

let counter = 0
/** An upload stored in `blobs`, as the post's media. */
export const upload = (blobs: BlobStoreShape, type: "image" | "video", bytes = 2048) =>
  Effect.gen(function* () {
    const n = ++counter
    const mimeType = type === "image" ? "image/jpeg" : "video/mp4"
    const key = `media/med_meta${n}/f.${type === "image" ? "jpg" : "mp4"}`
    yield* blobs.put(key, Stream.make(new Uint8Array(bytes).map((_, i) => (i * 7 + n) % 251)), mimeType)
    const media: Media = {
      id: `med_meta${n}`,
      workspaceId: "ws_1",
      type,
      mimeType,
      filename: `f${n}`,
      sizeBytes: bytes,
      width: 1080,
      height: 1350,
      durationMs: type === "video" ? 8000 : null,
      blobKey: key,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000
    }
    return media
  })

export const publishedOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Published") throw new Error(`expected Published, got ${outcome._tag} (${outcome.handle})`)
  return outcome.published
}
export const processingOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Processing") throw new Error(`expected Processing, got Published ${outcome.published.externalId}`)
  return outcome
}
