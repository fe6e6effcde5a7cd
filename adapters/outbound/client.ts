import * as http from "node:http"
import * as https from "node:https"
import { Cause, Context, Effect, Exit, Layer, Option } from "effect"
import { HttpBody, HttpClient, type HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import type { HttpMethod } from "effect/http/HttpMethod"
import { guardedLookup } from "./guard.ts"
import type { Policy } from "./policies.ts"
import { makeTransport, TimedOut } from "./transport.ts"

// Callers read this module as the one outbound API (Outbound.policies, Outbound.TimedOut): its parts are named here.
export { type Policy, policies } from "./policies.ts"
export { BodyTooLarge, TimedOut } from "./transport.ts"

/** The process's outbound settings (read once from the configuration by the host). */
export interface OutboundSettings {
  /** Loopback hosts pass the guard (HERALD_ALLOW_LOOPBACK): development and tests only. */
  readonly allowLoopback: boolean
  /** Keep-alive sockets per host and pool. */
  readonly maxSocketsPerHost: number
}

export const defaultSettings: OutboundSettings = { allowLoopback: false, maxSocketsPerHost: 32 }

export interface Outbound {
  readonly settings: OutboundSettings
  /** An Effect HttpClient for one kind of call: guard, time, body cap and redirects from `policy`. */
  readonly client: (policy: Policy) => HttpClient.HttpClient
  /** The same as a `fetch` (for libraries that take one: @atproto/api, oauth4webapi). */
  readonly fetch: (policy: Policy) => typeof globalThis.fetch
  /** Closes the kept-alive sockets. */
  readonly close: () => void
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
  const transport = makeTransport(poolOf)

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
