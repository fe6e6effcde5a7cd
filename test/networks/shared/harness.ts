import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import * as HmacFileLinks from "../../../adapters/crypto/HmacFileLinks.ts"
import * as MemoryBlobStore from "../../../adapters/memory/MemoryBlobStore.ts"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { FileLinksShape } from "../../../application/ports/FileLinks.ts"
import type { Connection, Connector, NetworkCredentials } from "../../../application/ports/Connectors.ts"
import type { Network } from "../../../application/ports/Network.ts"
import type { PublishOutcome, PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import type { Platform } from "../../../domain/platforms.ts"

// What every network adapter test needs besides its own fake API: one copy, so the suites stay alike.

export const T0 = Date.parse("2026-11-21T10:00:00Z")

export const callbackFor = (platform: Platform) => `http://herald.test/connect/${platform}/callback`

/** Herald's clock (TestClock) and the fake's, set to the same instant. */
export const setNow = (fake: { readonly state: { clock: number | null } }, ms: number) =>
  Effect.andThen(
    TestClock.setTime(ms),
    Effect.sync(() => void (fake.state.clock = ms))
  )

/** A fresh network (its own rate gate) made by `make`, with a memory blob store for uploads. */
export const onMemoryBlobs = <N>(make: (blobs: BlobStoreShape) => N) =>
  Effect.map(MemoryBlobStore.make("http://herald.test", HmacFileLinks.make("test")), ({ store }) => ({
    network: make(store),
    blobs: store
  }))

/** The browser part of connecting: opens the authorize URL; the fake answers with a redirect to the callback, whose parameters come back. */
export const authorize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual" })
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`)
    return Object.fromEntries(new URL(response.headers.get("location")!).searchParams) as Record<string, string>
  })

/** Connects through a network's connector as Herald's callback does: every account it gives. */
export const connectAll = (
  network: { readonly platform: Platform; readonly connector: Connector },
  state = "state-1",
  formUrl = ""
) =>
  Effect.gen(function* () {
    const callbackUrl = callbackFor(network.platform)
    const begun = yield* network.connector.begin({ state, callbackUrl, formUrl })
    const params = yield* authorize(begun.url)
    return yield* network.connector.complete({ params, callbackUrl, verifier: begun.verifier })
  })

/** Connects as the fake's user `as` (the one its authorize page approves): the first account. */
export const connectAs = (fake: { readonly state: { authorizeAs: string } }, network: Network, as: string) =>
  Effect.gen(function* () {
    fake.state.authorizeAs = as
    const [connection] = yield* connectAll(network, "st")
    return connection
  })

/**
 * Herald's uploads as a network fetches them: a memory store whose signed /files/ links a local server
 * answers, as Herald's /files route does; with `nowMs`, it checks each link's signature and expiry too.
 */
export const serveBlobs = async (links: FileLinksShape, nowMs?: () => number) => {
  let blobs: BlobStoreShape | null = null
  const { origin, close } = await listenLocally(
    async (req, res) => {
      const url = new URL(req.url ?? "/", "http://files")
      const key = decodeURIComponent(url.pathname.replace(/^\/files\//, ""))
      if (nowMs !== undefined) {
        const check = links.check(key, url.searchParams.get("expires"), url.searchParams.get("signature"), nowMs())
        if (check !== "valid") return void res.writeHead(check === "expired" ? 410 : 403).end()
      }
      const bytes = await Effect.runPromise(Effect.option(Stream.runCollect(blobs!.get(key))))
      if (Option.isNone(bytes)) return void res.writeHead(404).end()
      const info = await Effect.runPromise(blobs!.stat(key))
      res
        .writeHead(200, { "content-type": info.contentType })
        .end(Buffer.concat(bytes.value.map((c) => Buffer.from(c))))
    },
    (res) => void res.writeHead(500).end()
  )
  blobs = (await Effect.runPromise(MemoryBlobStore.make(origin, links))).store
  return { blobs, origin, close }
}
export type ServedBlobs = Awaited<ReturnType<typeof serveBlobs>>

/** A connected account in workspace ws_1, as Herald stores it. */
export const connectedAccount = (
  fields: Pick<Account, "id" | "platform" | "name" | "username" | "externalId"> & Partial<Account>
): Account => ({
  workspaceId: "ws_1",
  avatarUrl: null,
  status: "connected",
  connectedAt: T0,
  ...fields
})

/** The account Herald stores for a connection's profile. */
export const accountOf = (
  platform: Platform,
  id: string,
  connection: Connection,
  fields: Partial<Account> = {}
): Account =>
  connectedAccount({
    id,
    platform,
    name: connection.profile.name,
    username: connection.profile.username,
    externalId: connection.profile.externalId,
    ...fields
  })

/** A publish request for post_1 with nothing but text; `fields` adds what a test needs. */
export const publishRequest = (
  account: Account,
  credentials: NetworkCredentials | null,
  fields: Partial<PublishRequest> = {}
): PublishRequest => ({
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

export interface UploadSpec {
  readonly type: "image" | "video"
  readonly mimeType: string
  /** How many bytes of a pattern (different for each upload), or the bytes themselves. */
  readonly bytes: number | Uint8Array
  /** What the network's tests want other than the defaults (key media/n, id med_n, 10×10, 5 s of video), from the upload's number. */
  readonly fields?: (n: number) => Partial<Media>
  /** Size of the pieces the blob store is given, as a stream of uploads arrives. */
  readonly pieceBytes?: number
}

let uploads = 0
/** An upload stored in `blobs`, as a post's media; its SHA-256 is to compare with what the fake received. */
export const upload = (blobs: BlobStoreShape, spec: UploadSpec) =>
  Effect.gen(function* () {
    const n = ++uploads
    const data =
      typeof spec.bytes === "number" ? new Uint8Array(spec.bytes).map((_, i) => (i * 7 + n) % 251) : spec.bytes
    const pieceBytes = spec.pieceBytes ?? 1_000_000
    const pieces = Array.from({ length: Math.max(1, Math.ceil(data.length / pieceBytes)) }, (_, i) =>
      data.subarray(i * pieceBytes, (i + 1) * pieceBytes)
    )
    const media: Media = {
      id: `med_${n}`,
      workspaceId: "ws_1",
      type: spec.type,
      mimeType: spec.mimeType,
      filename: `f${n}`,
      sizeBytes: data.length,
      width: 10,
      height: 10,
      durationMs: spec.type === "video" ? 5000 : null,
      blobKey: `media/${n}`,
      previewKey: null,
      createdAt: T0,
      expiresAt: T0 + 7 * 86_400_000,
      ...spec.fields?.(n)
    }
    yield* blobs.put(media.blobKey, Stream.fromArray(pieces), media.mimeType)
    return { media, sha256: createHash("sha256").update(data).digest("hex") }
  })

/** Runs publish until it stops answering Processing (a test's stand-in for the pipeline's passes). */
export const publishThrough = (network: Network, req: PublishRequest, handle?: string, maxCalls = 30) =>
  Effect.gen(function* () {
    const outcomes: Array<PublishOutcome> = []
    let next = handle
    for (let i = 0; i < maxCalls; i++) {
      const outcome = yield* network.publisher.publish(req, next)
      outcomes.push(outcome)
      if (outcome._tag === "Published") return outcomes
      next = outcome.handle
    }
    throw new Error(`still processing after ${maxCalls} calls`)
  })

export const publishedOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Published") throw new Error(`expected Published, got ${outcome._tag} (${outcome.handle})`)
  return outcome.published
}

export const processingOf = (outcome: PublishOutcome) => {
  if (outcome._tag !== "Processing")
    throw new Error(`expected Processing, got Published ${outcome.published.externalId}`)
  return outcome
}

// The fake APIs' common machinery: a request log a test reads, scripted answers, and a local server.

export interface RecordedRequest<Body = unknown> {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
  /** As the fake parsed it: JSON, form fields, or the size of a binary body. */
  readonly body: Body
}

export interface Scripted {
  readonly status: number
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
  /** Do the work (create the post), then close the connection without answering: a lost answer. */
  readonly dropAnswer?: boolean
}

/** Every request a fake received, and the answers a test scripted for the next request to a route. */
export const requestLog = <Body = unknown>() => {
  const requests: Array<RecordedRequest<Body>> = []
  const scripted: Array<{ readonly method: string; readonly path: string | RegExp; readonly reply: Scripted }> = []
  const matches = (path: string | RegExp, actual: string) =>
    typeof path === "string" ? path === actual : path.test(actual)
  return {
    requests,
    /** Records the request; the answer a test scripted for it, or null. */
    record: (req: IncomingMessage, url: URL, body: Body): Scripted | null => {
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: { ...req.headers } as Record<string, string>,
        body
      })
      const index = scripted.findIndex((s) => s.method === req.method && matches(s.path, url.pathname))
      return index >= 0 ? scripted.splice(index, 1)[0]!.reply : null
    },
    /** The next request to `method path` gets this answer instead (or has its answer lost). */
    script: (method: string, path: string | RegExp, reply: Scripted) => void scripted.push({ method, path, reply }),
    calls: (method: string, path: string | RegExp) =>
      requests.filter((r) => r.method === method && matches(path, r.path))
  }
}

/** Serves `handle` on a free local port; an error it throws answers 500 in the fake's own shape. */
export const listenLocally = async (
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
  onError: (res: ServerResponse, e: unknown) => void
) => {
  const server = createServer((req, res) => {
    handle(req, res).catch((e) => onError(res, e))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Answers with `body` as JSON (no body: no content type either); `contentType` for an API that names its charset. */
export const sendJson = (
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
  contentType = "application/json"
) => {
  res.writeHead(status, { ...(body === undefined ? {} : { "content-type": contentType }), ...headers })
  res.end(body === undefined ? undefined : JSON.stringify(body))
}

/** A request's whole body, with a form or JSON parsed; any other body as `unparsed` records it (by default its size). */
export const readRequestBody = async (
  req: IncomingMessage,
  unparsed = (raw: Buffer, _type: string): unknown => (raw.length > 0 ? { bytes: raw.length } : undefined)
) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks)
  const type = req.headers["content-type"] ?? ""
  if (type.startsWith("application/x-www-form-urlencoded"))
    return { raw, type, parsed: Object.fromEntries(new URLSearchParams(raw.toString())) as unknown }
  if (type.startsWith("application/json")) return { raw, type, parsed: JSON.parse(raw.toString() || "null") as unknown }
  return { raw, type, parsed: unparsed(raw, type) }
}
