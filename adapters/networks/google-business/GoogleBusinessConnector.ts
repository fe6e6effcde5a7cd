import { Clock, Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { GoogleBusinessApi, Location } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/** How a location shows in Herald: its street and town, else its title. */
const addressOf = (location: Location) => {
  const address = location.storefrontAddress
  const parts = [address?.addressLines?.[0], address?.locality].filter((p): p is string => p !== undefined && p !== "")
  return parts.length > 0 ? parts.join(", ") : (location.title ?? location.name)
}

/**
 * Connects a person's Business Profile locations with Google OAuth 2.0 (authorization code with
 * PKCE, offline access for a refresh token). Every location of every account the person manages
 * (their own, and the location groups) becomes its own Herald account, holding the same grant and
 * naming its v4 parent (`accounts/{a}/locations/{l}`) in its credentials; a location reached through
 * two accounts is connected once. Google's refresh tokens do not rotate; `invalid_grant` means a
 * person must connect again.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: GoogleBusinessApi }): Connector => ({
  platform: "google_business",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const accounts = yield* deps.api.accounts(tokens.accessToken)
      const seen = new Set<string>()
      const connections: Array<Connection> = []
      for (const account of accounts) {
        const listed = yield* Effect.result(deps.api.locations(tokens.accessToken, account.name))
        if (listed._tag === "Failure") {
          // One account Google will not list (a group the person lost) must not stop the others.
          if (listed.failure.retryable) return yield* Effect.fail(listed.failure)
          yield* Effect.logWarning("a Business Profile account's locations were not listed").pipe(
            Effect.annotateLogs({ account: account.name, why: listed.failure.message })
          )
          continue
        }
        for (const location of listed.success) {
          if (seen.has(location.name)) continue
          seen.add(location.name)
          connections.push({
            profile: {
              externalId: location.name,
              name: location.title ?? location.name,
              username: addressOf(location),
              avatarUrl: null
            },
            credentials: credentialsOf(tokens, at, { account: account.name, location: location.name })
          })
        }
      }
      if (connections.length === 0)
        return yield* PublishError.refused({
          code: "upstream_rejected",
          message:
            "This Google account manages no Business Profile location: add or claim one on business.google.com, then connect again."
        })
      return connections
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(
          new GrantRevoked({ message: "Google gave no refresh token for this Business Profile; connect it again." })
        )
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          // The location the grant acts for stays with the renewed token.
          return credentialsOf(tokens, yield* Clock.currentTimeMillis, credentials.extra)
        }).pipe(Effect.mapError(refreshError))
})
