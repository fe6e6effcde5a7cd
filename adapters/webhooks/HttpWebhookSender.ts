import { randomBytes } from "node:crypto"
import { Config, Effect, Layer } from "effect"
import { type HttpClientError, HttpClientRequest } from "effect/http"
import { Webhook } from "standardwebhooks"
import {
  WebhookSender,
  type WebhookSenderShape,
  WebhookUrlRefused,
  type WebhookResponse
} from "../../application/ports/WebhookSender.ts"
import { allowLoopbackConfig } from "../../application/config.ts"
import * as Outbound from "../outbound/client.ts"
import { AddressRefused, checkUrl } from "../outbound/guard.ts"

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
  timeoutMs: Outbound.policies.webhook.timeoutMs,
  maxResponseBytes: Outbound.policies.webhook.maxBodyBytes,
  maxSockets: Outbound.defaultSettings.maxSocketsPerHost
}

const refuse = (reason: string) => new WebhookUrlRefused({ reason })

/** The guard's refusal in a webhook's words. */
const reasonOf = (refused: AddressRefused): string => {
  switch (refused.kind) {
    case "scheme":
      return "The URL must be an absolute https URL."
    case "credentials":
      return "The URL must not carry credentials."
    case "unresolvable":
      return `The host ${refused.host} does not resolve.`
    case "private":
      return `The host ${refused.host} is a private, link-local or reserved address; webhooks go to public hosts only.`
    case "loopback":
      return `The host ${refused.host} is this server itself (loopback); webhooks go to public hosts only.`
  }
}

/**
 * The URL checked by the one address guard (every address its host resolves to must be public, or
 * loopback when allowed), then https unless it is loopback only and loopback is allowed. The POST is
 * judged again by the same guard when it connects, on the address it connects to.
 */
const resolve = (raw: string, options: SenderOptions): Effect.Effect<URL, WebhookUrlRefused> =>
  checkUrl(raw, options.allowLoopback).pipe(
    Effect.mapError((refused) => refuse(reasonOf(refused))),
    Effect.flatMap(({ url, loopbackOnly }) =>
      url.protocol === "https:" || (options.allowLoopback && loopbackOnly)
        ? Effect.succeed(url)
        : Effect.fail(refuse("The URL must use https."))
    )
  )

const describe = (error: HttpClientError.HttpClientError, timeoutMs: number): string => {
  const cause = Outbound.causeOf(error)
  if (cause instanceof Outbound.TimedOut) return `No answer within ${timeoutMs} ms.`
  if (cause instanceof AddressRefused) return reasonOf(cause)
  const e = cause as { code?: string; message?: string }
  return e.code !== undefined ? `Connection failed (${e.code}).` : `Connection failed: ${e.message ?? String(cause)}`
}

export const make = (options: SenderOptions) => {
  // The webhooks' own pool (sized by their setting), on the one outbound client and guard.
  const outbound = Outbound.make({ allowLoopback: options.allowLoopback, maxSocketsPerHost: options.maxSockets })
  const client = outbound.client({
    ...Outbound.policies.webhook,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxResponseBytes
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
        const post = HttpClientRequest.post(target.success).pipe(
          HttpClientRequest.bodyText(request.body, "application/json"),
          HttpClientRequest.setHeaders({
            "user-agent": "Herald-Webhooks/1",
            "webhook-id": request.id,
            "webhook-timestamp": String(Math.floor(request.timestamp / 1000)),
            "webhook-signature": signature
          })
        )
        const answer = yield* Effect.result(client.execute(post))
        if (answer._tag === "Failure")
          return {
            ok: false,
            status: null,
            durationMs: elapsed(),
            error: describe(answer.failure, options.timeoutMs)
          } satisfies WebhookResponse
        const status = answer.success.status
        const ok = status >= 200 && status < 300
        return {
          ok,
          status,
          durationMs: elapsed(),
          error: ok
            ? null
            : status >= 300 && status < 400
              ? `Answered ${status}; redirects are not followed: register the final URL.`
              : `Answered ${status}.`
        } satisfies WebhookResponse
      }),
    newSecret: () => Effect.sync(() => `whsec_${randomBytes(24).toString("base64")}`)
  } satisfies WebhookSenderShape
}

export const layer = (options: Partial<SenderOptions> = {}) =>
  Layer.succeed(WebhookSender)(make({ ...defaultSenderOptions, ...options }))

/** The sender's settings from the environment. */
export const optionsConfig = Config.all({
  allowLoopback: allowLoopbackConfig,
  timeoutMs: Config.Int("HERALD_WEBHOOK_TIMEOUT_MS").pipe(Config.withDefault(defaultSenderOptions.timeoutMs)),
  maxResponseBytes: Config.Int("HERALD_WEBHOOK_MAX_RESPONSE_BYTES").pipe(
    Config.withDefault(defaultSenderOptions.maxResponseBytes)
  ),
  maxSockets: Config.Int("HERALD_WEBHOOK_SOCKETS_PER_HOST").pipe(Config.withDefault(defaultSenderOptions.maxSockets))
})

export const layerConfig = Layer.unwrap(Effect.map(optionsConfig, (o) => layer(o)))
