import { Clock, Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { TikTokApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/**
 * Connects a TikTok creator with Login Kit (OAuth 2.0, client_key, no PKCE for web apps): the
 * account is the creator's open_id, named by the creator info's username. Access tokens last hours
 * and each refresh returns a new refresh token (the old one stops working), which is why renewals
 * run under the account's lock; the refresh token's own end is kept.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: TikTokApi }): Connector => ({
  platform: "tiktok",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const user = yield* deps.api.userInfo(tokens.accessToken)
      const creator = yield* deps.api.creatorInfo({ openId: user.open_id, accessToken: tokens.accessToken })
      return [
        {
          profile: {
            externalId: user.open_id,
            name: user.display_name,
            username: creator.creator_username,
            avatarUrl: user.avatar_url ?? null
          },
          credentials: credentialsOf(tokens, at)
        }
      ]
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(new GrantRevoked({ message: "TikTok gave no refresh token for this account; connect it again." }))
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          return credentialsOf(tokens, yield* Clock.currentTimeMillis)
        }).pipe(Effect.mapError(refreshError))
})
