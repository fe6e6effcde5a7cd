import * as http from "node:http"
import * as https from "node:https"
import { Cache, Config, Effect, Layer } from "effect"
import {
  ClientDocuments,
  type ClientDocumentsShape,
  ClientDocumentUnreadable
} from "../../application/ports/ClientDocuments.ts"
import { CLIENT_DOCUMENT_MAX_BYTES } from "../../domain/oauth.ts"
import { pinned, type Resolved, resolve } from "./HttpWebhookSender.ts"

// OAuth Client ID Metadata Documents are fetched through the webhooks' address guard (one guard for every
// URL someone else names) until the shared outbound client replaces both.

export interface ClientDocumentOptions {
  /** http on 127.0.0.0/8, ::1 and localhost: development and tests only. */
  readonly allowLoopback: boolean
  readonly timeoutMs: number
  readonly maxBytes: number
}

const unreadable = (reason: string) => new ClientDocumentUnreadable({ reason })

/** One GET of JSON, no redirects followed, cut off past the cap; resolves with the text or why not. */
const get = (target: Resolved, maxBytes: number, signal: AbortSignal) =>
  new Promise<{ readonly text: string } | { readonly problem: string }>((done) => {
    const client = target.url.protocol === "https:" ? https : http
    const request = client.get(
      target.url,
      { headers: { accept: "application/json" }, signal, lookup: pinned(target.address, target.family) },
      (response) => {
        const status = response.statusCode ?? 0
        if (status !== 200) {
          response.destroy()
          return done({
            problem: `The client document's URL answered ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}.`
          })
        }
        const chunks: Array<Buffer> = []
        let read = 0
        response.on("data", (chunk: Buffer) => {
          read += chunk.length
          if (read > maxBytes) {
            response.destroy()
            done({ problem: `The client document is larger than ${maxBytes} bytes.` })
          } else chunks.push(chunk)
        })
        response.on("end", () => done({ text: Buffer.concat(chunks).toString("utf8") }))
        response.on("error", () => done({ problem: "The client document could not be read." }))
      }
    )
    request.on("error", (e: { code?: string; name?: string }) =>
      done({
        problem:
          e.name === "AbortError" || e.name === "TimeoutError"
            ? "The client document's host did not answer in time."
            : `The client document's host could not be reached (${e.code ?? "error"}).`
      })
    )
  })

/** One read of a document: the address guard, then a GET of JSON. */
const read = (options: ClientDocumentOptions) => (url: string) =>
  Effect.gen(function* () {
    const target = yield* Effect.mapError(resolve(url, options), (refused) => unreadable(refused.reason))
    const answer = yield* Effect.promise((interrupted) =>
      get(target, options.maxBytes, AbortSignal.any([interrupted, AbortSignal.timeout(options.timeoutMs)]))
    )
    if ("problem" in answer) return yield* Effect.fail(unreadable(answer.problem))
    return yield* Effect.try({
      try: () => JSON.parse(answer.text) as unknown,
      catch: () => unreadable("The client document is not JSON.")
    })
  })

/**
 * Reads go through a cache for a minute, failures included: anyone may name a URL as a client_id, and
 * asking again and again makes one request a minute to it, however many arrive at once.
 */
export const make = (options: ClientDocumentOptions) =>
  Effect.map(
    Cache.make({ capacity: 1000, timeToLive: "1 minute", lookup: read(options) }),
    (documents): ClientDocumentsShape => ({
      allowsLoopback: options.allowLoopback,
      fetch: (url) => Cache.get(documents, url)
    })
  )

export const layer = (options: Partial<ClientDocumentOptions> = {}) =>
  Layer.effect(ClientDocuments)(
    make({ allowLoopback: false, timeoutMs: 5000, maxBytes: CLIENT_DOCUMENT_MAX_BYTES, ...options })
  )

/** HERALD_ALLOW_LOOPBACK (the development setting) or the webhooks' own HERALD_WEBHOOKS_ALLOW_LOOPBACK lets loopback through. */
export const layerConfig = Layer.unwrap(
  Effect.map(
    Config.all({
      any: Config.Boolean("HERALD_ALLOW_LOOPBACK").pipe(Config.withDefault(false)),
      webhooks: Config.Boolean("HERALD_WEBHOOKS_ALLOW_LOOPBACK").pipe(Config.withDefault(false))
    }),
    ({ any, webhooks }) => layer({ allowLoopback: any || webhooks })
  )
)
