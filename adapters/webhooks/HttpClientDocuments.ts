import { Cache, Effect, Layer } from "effect"
import { HttpClientRequest } from "effect/http"
import { allowLoopbackConfig } from "../../application/config.ts"
import {
  ClientDocuments,
  type ClientDocumentsShape,
  ClientDocumentUnreadable
} from "../../application/ports/ClientDocuments.ts"
import * as Outbound from "../outbound/client.ts"
import { AddressRefused, checkUrl } from "../outbound/guard.ts"

// OAuth Client ID Metadata Documents: a URL someone else names, fetched through the one outbound client and guard.

export interface ClientDocumentOptions {
  /** http on 127.0.0.0/8, ::1 and localhost: development and tests only. */
  readonly allowLoopback: boolean
  readonly timeoutMs: number
  readonly maxBytes: number
}

const unreadable = (reason: string) => new ClientDocumentUnreadable({ reason })

/** One read of a document: the guard, then a GET of JSON through the outbound client. */
const reader = (options: ClientDocumentOptions) => {
  const policy: Outbound.Policy = {
    ...Outbound.policies.clientDocument,
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBytes,
    allowLoopback: options.allowLoopback
  }
  return (url: string) =>
    Effect.gen(function* () {
      // https unless the host is this machine only and loopback is allowed; the GET is guarded again at connect.
      const checked = yield* Effect.mapError(checkUrl(url, options.allowLoopback), (r) => unreadable(r.message))
      if (checked.url.protocol !== "https:" && !(options.allowLoopback && checked.loopbackOnly))
        return yield* Effect.fail(unreadable("The URL must use https."))
      const outbound = yield* Outbound.Outbound
      const response = yield* outbound
        .client(policy)
        .execute(HttpClientRequest.get(checked.url, { headers: { accept: "application/json" } }))
        .pipe(
          Effect.mapError((error) => {
            const cause = Outbound.causeOf(error)
            return unreadable(
              cause instanceof Outbound.TimedOut
                ? "The client document's host did not answer in time."
                : cause instanceof Outbound.BodyTooLarge
                  ? `The client document is larger than ${options.maxBytes} bytes.`
                  : cause instanceof AddressRefused
                    ? cause.message
                    : `The client document's host could not be reached (${(cause as { code?: string }).code ?? "error"}).`
            )
          })
        )
      if (response.status !== 200)
        return yield* Effect.fail(
          unreadable(
            `The client document's URL answered ${response.status}${response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : ""}.`
          )
        )
      const text = yield* Effect.orElseSucceed(response.text, () => "")
      return yield* Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: () => unreadable("The client document is not JSON.")
      })
    })
}

/**
 * Reads go through Effect's Cache for a minute, refusals included: anyone may name a URL as a client_id,
 * and asking again and again makes one request a minute to it, however many arrive at once.
 */
export const make = (options: ClientDocumentOptions) =>
  Effect.map(
    // Looked up in the caller's context: the host's outbound client, not the one at construction.
    Cache.make({ capacity: 1000, timeToLive: "1 minute", lookup: reader(options), requireServicesAt: "lookup" }),
    (documents): ClientDocumentsShape => ({
      allowsLoopback: options.allowLoopback,
      fetch: (url) => Cache.get(documents, url)
    })
  )

export const layer = (options: Partial<ClientDocumentOptions> = {}) =>
  Layer.effect(ClientDocuments)(
    make({
      allowLoopback: false,
      timeoutMs: Outbound.policies.clientDocument.timeoutMs,
      maxBytes: Outbound.policies.clientDocument.maxBodyBytes,
      ...options
    })
  )

/** HERALD_ALLOW_LOOPBACK (the one development setting, or its older name) lets loopback through. */
export const layerConfig = Layer.unwrap(Effect.map(allowLoopbackConfig, (allowLoopback) => layer({ allowLoopback })))
