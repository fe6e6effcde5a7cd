import { randomBytes } from "node:crypto"
import { lookup } from "node:dns/promises"
import * as http from "node:http"
import * as https from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { Config, Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"
import {
  WebhookSender,
  type WebhookSenderShape,
  WebhookUrlRefused,
  type WebhookResponse
} from "../../application/ports/WebhookSender.ts"
import { classify } from "./addresses.ts"

export interface SenderOptions {
  /** Lets endpoints on this machine (127.0.0.0/8, ::1, localhost) through, over http too: development and tests only. */
  readonly allowLoopback: boolean
  /** A try that has not been answered in this long fails (connection, headers and body together). */
  readonly timeoutMs: number
  /** The most of an answer's body read; a longer one is cut off (its status still counts). */
  readonly maxResponseBytes: number
  /** Sockets kept open per endpoint host. */
  readonly maxSockets: number
}

export const defaultSenderOptions: SenderOptions = {
  allowLoopback: false,
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  maxSockets: 32
}

export interface Resolved {
  readonly url: URL
  readonly address: string
  readonly family: 4 | 6
}

const refuse = (reason: string) => new WebhookUrlRefused({ reason })

/**
 * The URL's scheme and host checked, and the host resolved: every address it resolves to must be
 * public (loopback too when allowed), so a name that points anywhere inside is refused whole. The
 * request then connects to the address checked here, never to a second resolution.
 */
export const resolve = (
  raw: string,
  options: Pick<SenderOptions, "allowLoopback">
): Effect.Effect<Resolved, WebhookUrlRefused> =>
  Effect.gen(function* () {
    const url = URL.parse(raw)
    if (url === null || (url.protocol !== "https:" && url.protocol !== "http:"))
      return yield* Effect.fail(refuse("The URL must be an absolute https URL."))
    if (url.username !== "" || url.password !== "")
      return yield* Effect.fail(refuse("The URL must not carry credentials."))
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const literal = isIP(host)
    const addresses =
      literal !== 0
        ? [{ address: host, family: literal as 4 | 6 }]
        : yield* Effect.tryPromise({
            try: () => lookup(host, { all: true, verbatim: true }),
            catch: () => refuse(`The host ${host} does not resolve.`)
          }).pipe(Effect.map((list) => list.map((a) => ({ address: a.address, family: a.family as 4 | 6 }))))
    if (addresses.length === 0) return yield* Effect.fail(refuse(`The host ${host} does not resolve.`))
    const kinds = addresses.map((a) => classify(a.address))
    if (kinds.includes("private"))
      return yield* Effect.fail(
        refuse(`The host ${host} is a private, link-local or reserved address; webhooks go to public hosts only.`)
      )
    if (kinds.includes("loopback") && !options.allowLoopback)
      return yield* Effect.fail(
        refuse(`The host ${host} is this server itself (loopback); webhooks go to public hosts only.`)
      )
    const onlyLoopback = kinds.every((k) => k === "loopback")
    if (url.protocol !== "https:" && !(options.allowLoopback && onlyLoopback))
      return yield* Effect.fail(refuse("The URL must use https."))
    return { url, ...addresses[0]! }
  })

/** Connects to the checked address whatever the name resolves to now (DNS rebinding gets nowhere). */
export const pinned =
  (address: string, family: 4 | 6): LookupFunction =>
  (_host, options, callback) =>
    options.all
      ? (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }])
      : callback(null, address, family)

const describe = (error: unknown, timeoutMs: number): string => {
  const e = error as { name?: string; code?: string; message?: string }
  if (e.name === "TimeoutError" || e.name === "AbortError" || e.code === "ABORT_ERR")
    return `No answer within ${timeoutMs} ms.`
  return e.code !== undefined ? `Connection failed (${e.code}).` : `Connection failed: ${e.message ?? String(error)}`
}

export const make = (options: SenderOptions) => {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: options.maxSockets })
  }

  /** One POST; resolves with what happened, never rejects. */
  const post = (
    target: Resolved,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal
  ): Promise<Omit<WebhookResponse, "durationMs">> =>
    new Promise((done) => {
      const client = target.url.protocol === "https:" ? https : http
      const request = client.request(
        target.url,
        {
          method: "POST",
          headers,
          agent: agents[target.url.protocol as "http:" | "https:"],
          signal,
          lookup: pinned(target.address, target.family)
        },
        (response) => {
          const status = response.statusCode ?? 0
          let read = 0
          const finish = () => {
            const ok = status >= 200 && status < 300
            done({
              ok,
              status,
              error: ok
                ? null
                : status >= 300 && status < 400
                  ? `Answered ${status}; redirects are not followed: register the final URL.`
                  : `Answered ${status}.`
            })
          }
          response.on("data", (chunk: Buffer) => {
            read += chunk.length
            // Past the cap the rest is not read: the connection is dropped instead.
            if (read > options.maxResponseBytes) {
              response.destroy()
              finish()
            }
          })
          response.on("end", finish)
          response.on("error", () => finish())
        }
      )
      request.on("error", (error) => done({ ok: false, status: null, error: describe(error, options.timeoutMs) }))
      request.end(body)
    })

  return {
    check: (url) => Effect.asVoid(resolve(url, options)),
    send: (request) =>
      Effect.gen(function* () {
        const started = performance.now()
        const elapsed = () => Math.round(performance.now() - started)
        const target = yield* Effect.result(resolve(request.url, options))
        if (target._tag === "Failure")
          return {
            ok: false,
            status: null,
            durationMs: elapsed(),
            error: target.failure.reason
          } satisfies WebhookResponse
        const signature = new Webhook(request.secret).sign(request.id, new Date(request.timestamp), request.body)
        const headers = {
          "content-type": "application/json",
          "user-agent": "Herald-Webhooks/1",
          "webhook-id": request.id,
          "webhook-timestamp": String(Math.floor(request.timestamp / 1000)),
          "webhook-signature": signature
        }
        const answer = yield* Effect.promise((interrupted) =>
          post(
            target.success,
            headers,
            request.body,
            AbortSignal.any([interrupted, AbortSignal.timeout(options.timeoutMs)])
          )
        )
        return { ...answer, durationMs: elapsed() } satisfies WebhookResponse
      }),
    newSecret: () => Effect.sync(() => `whsec_${randomBytes(24).toString("base64")}`)
  } satisfies WebhookSenderShape
}

export const layer = (options: Partial<SenderOptions> = {}) =>
  Layer.succeed(WebhookSender)(make({ ...defaultSenderOptions, ...options }))

/** The sender's settings from the environment. */
export const optionsConfig = Config.all({
  allowLoopback: Config.Boolean("HERALD_WEBHOOKS_ALLOW_LOOPBACK").pipe(
    Config.withDefault(defaultSenderOptions.allowLoopback)
  ),
  timeoutMs: Config.Int("HERALD_WEBHOOK_TIMEOUT_MS").pipe(Config.withDefault(defaultSenderOptions.timeoutMs)),
  maxResponseBytes: Config.Int("HERALD_WEBHOOK_MAX_RESPONSE_BYTES").pipe(
    Config.withDefault(defaultSenderOptions.maxResponseBytes)
  ),
  maxSockets: Config.Int("HERALD_WEBHOOK_SOCKETS_PER_HOST").pipe(Config.withDefault(defaultSenderOptions.maxSockets))
})

export const layerConfig = Layer.unwrap(Effect.map(optionsConfig, (o) => layer(o)))
