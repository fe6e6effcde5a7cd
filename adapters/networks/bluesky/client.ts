import { Agent } from "@atproto/api"
import { Effect } from "effect"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import { Outbound, policies } from "../../outbound/client.ts"
import type { BlueskyOptions } from "./config.ts"
import { failureOf, type XrpcFailure } from "./errors.ts"

/** What Herald keeps about a Bluesky account besides its tokens (NetworkCredentials.extra, sealed). */
export interface BlueskyAccount {
  readonly did: string
  /** The account's own PDS, where its records live. */
  readonly pdsUrl: string
  /** Where it logged in (an entryway such as bsky.social, or the PDS): sessions are made and renewed there. */
  readonly serviceUrl: string
  readonly handle: string
  /** Lets Herald start a new session when the refresh token is gone; sealed like every credential. */
  readonly appPassword: string
}

export const accountOf = (credentials: NetworkCredentials | null): BlueskyAccount | null => {
  const extra = credentials?.extra
  if (extra === undefined || !extra.did || !extra.pdsUrl) return null
  return {
    did: extra.did,
    pdsUrl: extra.pdsUrl,
    serviceUrl: extra.serviceUrl ?? extra.pdsUrl,
    handle: extra.handle ?? extra.did,
    appPassword: extra.appPassword ?? ""
  }
}

/** The claims of a session JWT Herald reads: when it ends, and what kind of password made it. */
export const jwtClaims = (jwt: string): { readonly exp: number | null; readonly scope: string | null } => {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp?: unknown
      scope?: unknown
    }
    return {
      exp: typeof payload.exp === "number" ? payload.exp : null,
      scope: typeof payload.scope === "string" ? payload.scope : null
    }
  } catch {
    return { exp: null, scope: null }
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export const DEFAULT_CALL_TIMEOUT_MS = 30_000

/**
 * XRPC over @atproto/api, through the one outbound client. One Agent per host, kept: building one
 * costs ~5 ms (it wires every lexicon namespace). Tokens go with each call as a header, so an agent
 * is tied to no account, and Herald, not the library, decides when a session is renewed (under the
 * account's lock, so a rotated refresh token is never lost). The service Herald's configuration names
 * is called as configured; any other host (the PDS an account's identity document names) is someone
 * else's choice and goes through the address guard.
 */
export const makeClient = (options: BlueskyOptions) => {
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const configured = new URL(options.serviceUrl).origin
  // Per outbound client (one a process; tests run several), then per host.
  const pools = new WeakMap<Outbound, Map<string, Agent>>()
  const agentFor = (host: string, outbound: Outbound): Agent => {
    const agents = pools.get(outbound) ?? new Map<string, Agent>()
    pools.set(outbound, agents)
    const known = agents.get(host)
    if (known !== undefined) return known
    const policy = new URL(host).origin === configured ? policies.network : policies.namedApi
    // Long calls (uploads) have their own signal; the policy's time is the longest any call may take.
    const fetchImpl = options.fetch ?? outbound.fetch({ ...policy, timeoutMs: timeoutMs * 4 })
    const agent = new Agent((path: string, init: RequestInit) => fetchImpl(new URL(path, host), init))
    if (agents.size >= 256) agents.delete(agents.keys().next().value!)
    agents.set(host, agent)
    return agent
  }
  /** One call, ended after the timeout or when the fiber is interrupted; failures as XrpcFailure. */
  const call = <A>(
    run: (agent: Agent, signal: AbortSignal) => Promise<A>,
    host: string,
    options: { readonly long?: boolean } = {}
  ): Effect.Effect<A, XrpcFailure> =>
    Effect.flatMap(Outbound, (outbound) =>
      Effect.tryPromise({
        try: (interrupted) =>
          run(
            agentFor(host, outbound),
            AbortSignal.any([interrupted, AbortSignal.timeout(options.long === true ? timeoutMs * 4 : timeoutMs)])
          ),
        catch: failureOf
      })
    )
  return { call }
}

export type BlueskyClient = ReturnType<typeof makeClient>
