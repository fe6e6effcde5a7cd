import { Clock, Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { XApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/**
 * Connects X accounts with OAuth 2.0 (authorization code with PKCE, confidential client) and keeps
 * them connected: access tokens last 2 hours, and each refresh returns a new refresh token (the old
 * one stops working), which is why renewals run under the account's lock.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: XApi }): Connector => ({
  platform: "x",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const user = yield* deps.api.me(tokens.accessToken)
      return [
        {
          profile: {
            externalId: user.id,
            name: user.name,
            username: user.username,
            avatarUrl: user.profile_image_url ?? null
          },
          credentials: credentialsOf(tokens, at)
        }
      ]
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(new GrantRevoked({ message: "X gave no refresh token for this account; connect it again." }))
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          return credentialsOf(tokens, yield* Clock.currentTimeMillis)
        }).pipe(Effect.mapError(refreshError))
})
