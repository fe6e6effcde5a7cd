import { Clock, Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { PinterestApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/**
 * Connects a Pinterest account with OAuth 2.0 (Basic client authentication). Access tokens last about
 * 30 days; continuous refresh tokens last 60 days and every refresh returns a new one, so an account
 * in use is renewed for as long as the person keeps the grant.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: PinterestApi }): Connector => ({
  platform: "pinterest",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const account = yield* deps.api.userAccount(tokens.accessToken)
      return [
        {
          profile: {
            externalId: account.id ?? account.username,
            name: account.business_name ?? account.username,
            username: account.username,
            avatarUrl: account.profile_image ?? null
          },
          credentials: credentialsOf(tokens, at)
        }
      ]
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(
          new GrantRevoked({ message: "Pinterest gave no refresh token for this account; connect it again." })
        )
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          return credentialsOf(tokens, yield* Clock.currentTimeMillis)
        }).pipe(Effect.mapError(refreshError))
})
