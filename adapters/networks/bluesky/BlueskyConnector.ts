import type { ComAtprotoServerCreateSession } from "@atproto/api"
import { Clock, Effect } from "effect"
import {
  type Connection,
  type Connector,
  GrantRevoked,
  type NetworkCredentials,
  NetworkUnavailable
} from "../../../application/ports/Connectors.ts"
import { invalidFields } from "../../../domain/errors.ts"
import { accountOf, type BlueskyAccount, type BlueskyClient, bearer, jwtClaims } from "./client.ts"
import { connectErrorOf, isAccountGone, isSessionRefused, renewalErrorOf, waitFromHeaders } from "./errors.ts"
import type { RateGate } from "./rateGate.ts"

/** Scope of a session made with the account's main password (app passwords give com.atproto.appPass*). */
const MAIN_PASSWORD_SCOPE = "com.atproto.access"

/**
 * createSession is limited to 30 per 5 minutes and 300 a day per account: a renewal that falls back
 * to logging in with the stored app password does so at most once per account in this window.
 */
export const LOGIN_FALLBACK_SPACING_MS = 5 * 60_000

interface Session {
  readonly accessJwt: string
  readonly refreshJwt: string
  readonly did: string
  readonly handle: string
  readonly didDoc?: unknown
}

/** The account's PDS as its DID document names it (#atproto_pds); the service itself when the session carries none. */
const pdsOf = (didDoc: unknown, fallback: string): string => {
  const services = (
    didDoc as { service?: ReadonlyArray<{ id?: string; type?: string; serviceEndpoint?: unknown }> } | undefined
  )?.service
  const pds = services?.find(
    (s) => s.id?.endsWith("#atproto_pds") && s.type === "AtprotoPersonalDataServer"
  )?.serviceEndpoint
  return typeof pds === "string" && /^https?:\/\//.test(pds) ? pds.replace(/\/+$/, "") : fallback
}

const credentialsOf = (session: Session, account: Omit<BlueskyAccount, "did" | "handle">): NetworkCredentials => {
  const exp = jwtClaims(session.accessJwt).exp
  return {
    accessToken: session.accessJwt,
    refreshToken: session.refreshJwt,
    expiresAt: exp === null ? null : exp * 1000,
    extra: {
      did: session.did,
      handle: session.handle,
      pdsUrl: pdsOf(session.didDoc, account.pdsUrl),
      serviceUrl: account.serviceUrl,
      appPassword: account.appPassword
    }
  }
}

/** `@alice.bsky.social ` -> `alice.bsky.social`; an e-mail address is kept (Bluesky logs in with either). */
const cleanIdentifier = (raw: string) => raw.trim().replace(/^@/, "").toLowerCase()

/** Bluesky connects with a handle and an app password, on Herald's own form: no OAuth app to register. */
export const makeConnector = (client: BlueskyClient, serviceUrl: string, loginGate: RateGate): Connector => {
  const createSession = (identifier: string, password: string, host: string) =>
    client
      .call((agent, signal) => agent.com.atproto.server.createSession({ identifier, password }, { signal }), host)
      .pipe(Effect.map((r): Session => r.data as ComAtprotoServerCreateSession.OutputSchema & Session))

  /** The profile record on the PDS itself (no AppView needed): display name and avatar. */
  const profileOf = (session: Session, pdsUrl: string) =>
    client
      .call(
        (agent, signal) =>
          agent.com.atproto.repo.getRecord(
            { repo: session.did, collection: "app.bsky.actor.profile", rkey: "self" },
            { signal, headers: bearer(session.accessJwt) }
          ),
        pdsUrl
      )
      .pipe(
        Effect.map((r) => {
          const value = r.data.value as { displayName?: unknown; avatar?: { ref?: { toString(): string } } }
          const cid = value.avatar?.ref?.toString()
          return {
            name:
              typeof value.displayName === "string" && value.displayName.trim() !== ""
                ? value.displayName
                : session.handle,
            avatarUrl:
              cid === undefined
                ? null
                : `${pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(session.did)}&cid=${encodeURIComponent(cid)}`
          }
        }),
        // No profile yet (or the PDS cannot say now): the handle names the account.
        Effect.orElseSucceed(() => ({ name: session.handle, avatarUrl: null as string | null }))
      )

  const complete: Connector["complete"] = ({ params }) =>
    Effect.gen(function* () {
      const identifier = cleanIdentifier(params.handle ?? "")
      const appPassword = (params.appPassword ?? "").trim()
      const missing = [...(identifier === "" ? ["handle"] : []), ...(appPassword === "" ? ["appPassword"] : [])]
      if (missing.length > 0)
        return yield* Effect.fail(invalidFields(missing, "Give the account's handle and an app password."))
      if (!identifier.includes(".") && !identifier.includes("@"))
        return yield* Effect.fail(
          invalidFields(["handle"], `Give the full handle, for example ${identifier}.bsky.social.`)
        )
      const session = yield* Effect.mapError(createSession(identifier, appPassword, serviceUrl), connectErrorOf)
      if (jwtClaims(session.accessJwt).scope === MAIN_PASSWORD_SCOPE) {
        // Herald never keeps an account's main password: end the session it just made, and say why.
        yield* Effect.ignore(
          client.call(
            (agent, signal) =>
              agent.com.atproto.server.deleteSession(undefined, { signal, headers: bearer(session.refreshJwt) }),
            serviceUrl
          )
        )
        return yield* Effect.fail(
          invalidFields(
            ["appPassword"],
            "That is the account's main password. Herald only takes an app password: create one at https://bsky.app/settings/app-passwords and use it here."
          )
        )
      }
      const credentials = credentialsOf(session, { pdsUrl: serviceUrl.replace(/\/+$/, ""), serviceUrl, appPassword })
      const profile = yield* profileOf(session, credentials.extra!.pdsUrl!)
      const connection: Connection = {
        profile: {
          externalId: session.did,
          name: profile.name,
          username: session.handle,
          avatarUrl: profile.avatarUrl
        },
        credentials
      }
      return [connection]
    })

  /** A fresh session: refreshSession with the refresh token, else (it expired or was revoked) one log-in with the app password. */
  const refresh: NonNullable<Connector["refresh"]> = (credentials) =>
    Effect.gen(function* () {
      const account = accountOf(credentials)
      if (account === null)
        return yield* Effect.fail(
          new GrantRevoked({ message: "The stored Bluesky session is incomplete; reconnect the account." })
        )
      const renewed =
        credentials.refreshToken === null
          ? null
          : yield* client
              .call(
                (agent, signal) =>
                  agent.com.atproto.server.refreshSession(undefined, {
                    signal,
                    headers: bearer(credentials.refreshToken!)
                  }),
                account.serviceUrl
              )
              .pipe(
                Effect.map((r) => r.data as Session),
                Effect.catch((f) =>
                  isSessionRefused(f) && !isAccountGone(f) ? Effect.succeed(null) : Effect.fail(renewalErrorOf(f))
                )
              )
      if (renewed !== null) return credentialsOf(renewed, account)
      if (account.appPassword === "")
        return yield* Effect.fail(
          new GrantRevoked({
            message: "Bluesky ended the session and Herald has no app password to start another; reconnect the account."
          })
        )
      // Never a loop of log-ins: one per account per window, whatever asks.
      const now = yield* Clock.currentTimeMillis
      const wait = loginGate.waitFor(account.did, now)
      if (wait > 0)
        return yield* Effect.fail(
          new NetworkUnavailable({
            message: "Bluesky ended the session; Herald logs in again at most once every 5 minutes per account.",
            retryAfterMs: wait
          })
        )
      loginGate.closeUntil(account.did, now + LOGIN_FALLBACK_SPACING_MS)
      const session = yield* createSession(account.did, account.appPassword, account.serviceUrl).pipe(
        Effect.tapError((f) =>
          Effect.sync(() => {
            const waitMs = waitFromHeaders(f.headers, Date.now())
            if (waitMs !== undefined) loginGate.closeUntil(account.did, now + waitMs)
          })
        ),
        Effect.mapError(renewalErrorOf)
      )
      return credentialsOf(session, account)
    })

  return {
    platform: "bluesky",
    begin: ({ state, formUrl }) =>
      Effect.succeed({ url: `${formUrl}?state=${encodeURIComponent(state)}`, verifier: null }),
    complete,
    refresh
  }
}
