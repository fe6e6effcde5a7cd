import { Agent } from "@atproto/api"
import { Effect } from "effect"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
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
 * XRPC over @atproto/api. One Agent per host, kept: building one costs ~5 ms (it wires every
 * lexicon namespace). Tokens go with each call as a header, so an agent is tied to no account, and
 * Herald, not the library, decides when a session is renewed (under the account's lock, so a
 * rotated refresh token is never lost).
 */
export const makeClient = (options: BlueskyOptions) => {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const agents = new Map<string, Agent>()
  const agentFor = (host: string): Agent => {
    const known = agents.get(host)
    if (known !== undefined) return known
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
    Effect.tryPromise({
      try: (interrupted) =>
        run(
          agentFor(host),
          AbortSignal.any([interrupted, AbortSignal.timeout(options.long === true ? timeoutMs * 4 : timeoutMs)])
        ),
      catch: failureOf
    })
  return { call, agentFor }
}

export type BlueskyClient = ReturnType<typeof makeClient>
