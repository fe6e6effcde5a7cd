import * as http from "node:http"
import * as https from "node:https"
import { Cause, Context, Effect, Exit, Layer, Option, Schema, Stream } from "effect"
import { HttpBody, HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import type { HttpMethod } from "effect/http/HttpMethod"
import { CLIENT_DOCUMENT_MAX_BYTES } from "../../domain/oauth.ts"
import { AddressRefused, guardedLookup, judgeLiteral } from "./guard.ts"

/** The process's outbound settings (read once from the configuration by the host). */
export interface OutboundSettings {
  /** Loopback hosts pass the guard (HERALD_ALLOW_LOOPBACK): development and tests only. */
  readonly allowLoopback: boolean
  /** Keep-alive sockets per host and pool. */
  readonly maxSocketsPerHost: number
}

export const defaultSettings: OutboundSettings = { allowLoopback: false, maxSocketsPerHost: 32 }

/** What one kind of outbound call may do. */
export interface Policy {
  /**
   * The host was named by someone else (a webhook URL, a page in a post, an identity document, an
   * instance): the address guard judges every address it connects to. Off only for hosts from the
   * operator's own configuration (a network's API and token URLs).
   */
  readonly guarded: boolean
  /** One hop, from the request to the answer's last byte. */
  readonly timeoutMs: number
  /** The most of an answer's body read. */
  readonly maxBodyBytes: number
  /** Past maxBodyBytes: `fail` (an image, an API answer) or `truncate` (a page's head, a receiver's reply). */
  readonly overflow: "fail" | "truncate"
  /** Redirects followed, each hop guarded again; 0 returns the 3xx itself. */
  readonly maxRedirects: number
  /** Sending it twice is harmless whatever its method (X's append names its segment). */
  readonly idempotent?: boolean
  /** For an adapter given its own setting (the webhook sender's): in place of the process's allowLoopback. */
  readonly allowLoopback?: boolean
}

const KiB = 1024
const MiB = 1024 * KiB

/** Every kind of outbound call, its limits decided here. */
export const policies = {
  /** A network's API at a host its configuration names: JSON answers (media goes up, not down). */
  network: { guarded: false, timeoutMs: 30_000, maxBodyBytes: 16 * MiB, overflow: "fail", maxRedirects: 0 },
  /** A network's token endpoint. */
  oauth: { guarded: false, timeoutMs: 15_000, maxBodyBytes: 1 * MiB, overflow: "fail", maxRedirects: 0 },
  /** An API at a host someone else named (a Bluesky PDS from an identity document, an instance). */
  namedApi: { guarded: true, timeoutMs: 30_000, maxBodyBytes: 16 * MiB, overflow: "fail", maxRedirects: 0 },
  /** A web page in a post, read for its card: its head is enough. */
  page: { guarded: true, timeoutMs: 5_000, maxBodyBytes: 512 * KiB, overflow: "truncate", maxRedirects: 3 },
  /** A card's picture. */
  image: { guarded: true, timeoutMs: 5_000, maxBodyBytes: 5 * MiB, overflow: "fail", maxRedirects: 3 },
  /** An OAuth client's metadata document (its client_id URL): small JSON, no redirects. */
  clientDocument: {
    guarded: true,
    timeoutMs: 5_000,
    maxBodyBytes: CLIENT_DOCUMENT_MAX_BYTES,
    overflow: "fail",
    maxRedirects: 0
  },
  /** A webhook delivery: the receiver's status is what counts; redirects are not followed. */
  webhook: { guarded: true, timeoutMs: 10_000, maxBodyBytes: 64 * KiB, overflow: "truncate", maxRedirects: 0 }
} as const satisfies Record<string, Policy>

/** No whole answer within the policy's time. */
export class TimedOut extends Schema.TaggedError<TimedOut>()("TimedOut", {
  timeoutMs: Schema.Number,
  message: Schema.String
}) {}

/** The answer's body is over the policy's cap (and the policy does not cut it). */
export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", {
  maxBytes: Schema.Number,
  message: Schema.String
}) {}

export interface Outbound {
  readonly settings: OutboundSettings
  /** An Effect HttpClient for one kind of call: guard, time, body cap and redirects from `policy`. */
  readonly client: (policy: Policy) => HttpClient.HttpClient
  /** The same as a `fetch` (for libraries that take one: @atproto/api, oauth4webapi). */
  readonly fetch: (policy: Policy) => typeof globalThis.fetch
  /** Closes the kept-alive sockets. */
  readonly close: () => void
}

// Safe methods only: a network may refuse a PUT sent twice (TikTok refuses a chunk it already has).
const idempotentMethods = new Set(["GET", "HEAD", "OPTIONS"])
const nullBodyStatuses = new Set([101, 204, 205, 304])

/** A request body as bytes (kept, so a request can go again on a fresh socket). */
const bytesOf = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<{ readonly bytes: Uint8Array | undefined; readonly contentType?: string }, unknown> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed({ bytes: undefined })
    case "Uint8Array":
      return Effect.succeed({ bytes: body.body })
    case "Raw":
      return body.body instanceof Uint8Array
        ? Effect.succeed({ bytes: body.body })
        : Effect.promise(async () => ({
            bytes: new Uint8Array(
              await new Response(body.body as ConstructorParameters<typeof Response>[0]).arrayBuffer()
            )
          }))
    case "FormData":
      return Effect.promise(async () => {
        const encoded = new Response(body.formData)
        return {
          bytes: new Uint8Array(await encoded.arrayBuffer()),
          contentType: encoded.headers.get("content-type") ?? undefined
        }
      })
    case "Stream":
      return Stream.runCollect(body.stream).pipe(Effect.map((chunks) => ({ bytes: Buffer.concat([...chunks]) })))
  }
}

const headersOf = (incoming: http.IncomingHttpHeaders) => {
  const headers = new globalThis.Headers()
  for (const [name, value] of Object.entries(incoming))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v)
  return headers
}

const isReset = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === "ECONNRESET" || code === "EPIPE"
}

/** A process's outbound HTTP: one keep-alive pool per kind of guard, every call through `transport`. */
export const make = (settings: OutboundSettings): Outbound => {
  const pools = new Map<string, { readonly "http:": http.Agent; readonly "https:": https.Agent }>()
  const poolOf = (guarded: boolean, allowLoopback: boolean) => {
    const key = guarded ? `guarded, loopback ${allowLoopback}` : "configured"
    const known = pools.get(key)
    if (known !== undefined) return known
    // Sockets of a guarded pool were all connected through the guard: reusing one skips no check.
    const options = {
      keepAlive: true,
      // An idle socket is closed after this, or 2.5 s before the server's Keep-Alive hint runs out (Node
      // heeds the hint only when a timeout is set; its 1 s margin is short on a loaded machine).
      timeout: 60_000,
      agentKeepAliveTimeoutBuffer: 2_500,
      maxSockets: settings.maxSocketsPerHost,
      ...(guarded ? { lookup: guardedLookup(allowLoopback) } : {})
    }
    const pool = { "http:": new http.Agent(options), "https:": new https.Agent(options) }
    pools.set(key, pool)
    return pool
  }

  const transport = (policy: Policy, allowLoopback: boolean) =>
    HttpClient.make((request, url) =>
      Effect.flatMap(Effect.orDie(bytesOf(request)), (body) =>
        Effect.callback<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((resume) => {
          let settled = false
          let current: http.ClientRequest | undefined
          let timedOut = false
          // A plain timer (cheaper than abort signals); interruption destroys the request below.
          const timer = setTimeout(() => {
            timedOut = true
            current?.destroy()
            fail(null)
          }, policy.timeoutMs)
          const fail = (cause: unknown) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            const reason = timedOut
              ? new TimedOut({
                  timeoutMs: policy.timeoutMs,
                  message: `${url.host} did not answer within ${policy.timeoutMs} ms.`
                })
              : cause
            resume(
              Effect.fail(
                new HttpClientError.HttpClientError({
                  reason: new HttpClientError.TransportError({ request, cause: reason })
                })
              )
            )
          }
          const succeed = (response: http.IncomingMessage, bytes: Buffer) => {
            if (settled) return
            settled = true
            clearTimeout(timer)
            const status = response.statusCode ?? 0
            const web = new Response(nullBodyStatuses.has(status) ? null : bytes, {
              status,
              headers: headersOf(response.headers)
            })
            resume(Effect.succeed(HttpClientResponse.fromWeb(request, web)))
          }
          const protocol = url.protocol
          if (protocol !== "http:" && protocol !== "https:")
            return fail(
              new AddressRefused({ kind: "scheme", host: url.host, message: "Only http(s) URLs are called." })
            )
          const refused = policy.guarded ? judgeLiteral(url.hostname, allowLoopback) : null
          if (refused !== null) return fail(refused)
          const headers: Record<string, string> = { ...request.headers }
          if (body.contentType !== undefined) headers["content-type"] = body.contentType
          if (body.bytes !== undefined) headers["content-length"] = String(body.bytes.byteLength)

          const read = (response: http.IncomingMessage) => {
            const max = policy.maxBodyBytes
            const declared = Number(response.headers["content-length"])
            if (policy.overflow === "fail" && Number.isFinite(declared) && declared > max) {
              response.destroy()
              return fail(new BodyTooLarge({ maxBytes: max, message: `${url.host} answered more than ${max} bytes.` }))
            }
            const chunks: Array<Buffer> = []
            let size = 0
            response.on("data", (chunk: Buffer) => {
              size += chunk.length
              chunks.push(chunk)
              if (size <= max) return
              // Past the cap the rest is not read: the connection is dropped instead.
              response.destroy()
              if (policy.overflow === "truncate") succeed(response, Buffer.concat(chunks).subarray(0, max))
              else fail(new BodyTooLarge({ maxBytes: max, message: `${url.host} answered more than ${max} bytes.` }))
            })
            response.on("end", () => succeed(response, Buffer.concat(chunks)))
            response.on("error", fail)
          }

          const send = (fresh: boolean) => {
            const client = protocol === "https:" ? https : http
            const req = client.request(url, {
              method: request.method,
              headers,
              // A fresh socket: no pool, connected through the same guard.
              agent: fresh ? false : poolOf(policy.guarded, allowLoopback)[protocol],
              ...(fresh && policy.guarded ? { lookup: guardedLookup(allowLoopback) } : {})
            })
            current = req
            let answered = false
            req.on("response", (response) => {
              answered = true
              read(response)
            })
            req.on("error", (error) => {
              // A kept-alive socket the server had closed (Node's reusedSocket pattern): sent once more on a
              // fresh socket when sending twice is harmless, or when it was cut before its last byte left
              // (the server cannot have acted on it). A whole request the server dropped is not resent.
              const again =
                !fresh &&
                !answered &&
                req.reusedSocket &&
                isReset(error) &&
                !timedOut &&
                (idempotentMethods.has(request.method) || policy.idempotent === true || !req.writableFinished)
              if (again) send(true)
              else fail(error)
            })
            req.end(
              body.bytes === undefined
                ? undefined
                : Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength)
            )
          }
          send(false)
          return Effect.sync(() => {
            clearTimeout(timer)
            current?.destroy()
          })
        })
      )
    )

  const client = (policy: Policy): HttpClient.HttpClient => {
    const base = transport(policy, policy.allowLoopback ?? settings.allowLoopback)
    // Redirects through the same transport: each hop is guarded, timed and capped again.
    const followed = policy.maxRedirects > 0 ? HttpClient.followRedirects(base, policy.maxRedirects) : base
    // No trace headers to hosts outside Herald, and no client spans (Herald exports no traces).
    return HttpClient.transform(followed, (effect) =>
      effect.pipe(
        Effect.provideService(HttpClient.TracerPropagationEnabled, false),
        Effect.provideService(HttpClient.TracerDisabledWhen, () => true)
      )
    )
  }

  const fetchWith =
    (policy: Policy): typeof globalThis.fetch =>
    async (input, init) => {
      const web = new Request(input, init)
      const signal = init?.signal ?? undefined
      signal?.throwIfAborted()
      const bytes = web.body === null ? undefined : new Uint8Array(await web.arrayBuffer())
      const request = HttpClientRequest.make(web.method.toUpperCase() as HttpMethod)(web.url).pipe(
        HttpClientRequest.setBody(bytes === undefined ? HttpBody.empty : HttpBody.raw(bytes)),
        HttpClientRequest.setHeaders(Object.fromEntries(web.headers))
      )
      const exit = await Effect.runPromiseExit(client(policy).execute(request), signal === undefined ? {} : { signal })
      if (Exit.isSuccess(exit)) return Option.getOrThrow(HttpClientResponse.toWeb(exit.value))
      if (signal?.aborted) throw signal.reason
      const failure = Cause.findErrorOption(exit.cause)
      const cause = Option.isSome(failure) ? causeOf(failure.value) : Cause.squash(exit.cause)
      throw cause instanceof TimedOut
        ? Object.assign(new DOMException(cause.message, "TimeoutError"), { cause })
        : new TypeError(`fetch failed: ${describeCause(cause)}`, { cause })
    }

  const close = () => {
    for (const pool of pools.values()) for (const agent of Object.values(pool)) agent.destroy()
    pools.clear()
  }

  return { settings, client, fetch: fetchWith, close }
}

/** What went wrong under an HttpClientError (the guard's refusal, a timeout, a socket error). */
export const causeOf = (error: HttpClientError.HttpClientError): unknown =>
  error.reason._tag === "TransportError" ? (error.reason.cause ?? error.reason) : error.reason

const describeCause = (cause: unknown): string => {
  const e = cause as { message?: string; code?: string } | null
  if (e?.code !== undefined) return e.code
  return e?.message ?? String(cause)
}

let shared: Outbound | undefined

/**
 * The outbound client of the process. Hosts provide it from the configuration (`layer`); code run
 * without one gets the default: the guard on, loopback refused.
 */
export const Outbound = Context.Reference<Outbound>("herald/Outbound", {
  defaultValue: () => {
    shared ??= make(defaultSettings)
    return shared
  }
})

/** The process's outbound client on `settings`; its sockets are closed with the layer. */
export const layer = (settings: Partial<OutboundSettings> = {}) =>
  Layer.effect(Outbound)(
    Effect.acquireRelease(
      Effect.sync(() => make({ ...defaultSettings, ...settings })),
      (outbound) => Effect.sync(outbound.close)
    )
  )
