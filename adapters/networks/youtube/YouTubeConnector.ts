import { Clock, Effect, Option } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked, type NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { YouTubeApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/**
 * Connects a YouTube channel with Google OAuth 2.0 (authorization code with PKCE, offline access so
 * Google gives a refresh token). Access tokens last an hour; Google's refresh tokens do not rotate,
 * and `invalid_grant` (revoked, unused for 6 months, or 7 days old under a consent screen in
 * "Testing") means a person must connect again.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: YouTubeApi }): Connector => ({
  platform: "youtube",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const channel = yield* deps.api.myChannel(tokens.accessToken)
      if (Option.isNone(channel))
        return yield* Effect.fail(
          PublishError.refused({
            code: "upstream_rejected",
            message: "This Google account has no YouTube channel: create one on YouTube, then connect again."
          })
        )
      const { id, snippet } = channel.value
      return [
        {
          profile: {
            externalId: id,
            name: snippet.title,
            username: snippet.customUrl ?? snippet.title,
            avatarUrl: snippet.thumbnails?.default?.url ?? null
          },
          credentials: credentialsOf(tokens, at)
        }
      ]
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(
          new GrantRevoked({ message: "Google gave no refresh token for this YouTube account; connect it again." })
        )
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          return credentialsOf(tokens, yield* Clock.currentTimeMillis)
        }).pipe(Effect.mapError((e): GrantRevoked | NetworkUnavailable => refreshError(e)))
})
