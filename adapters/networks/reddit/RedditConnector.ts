import { Clock, Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { RedditApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/** Reddit's icon URLs come HTML-escaped and signed; the plain address is enough for an avatar. */
const avatarOf = (icon: string | null | undefined) =>
  icon == null || icon === "" ? null : (icon.replace(/&amp;/g, "&").split("?")[0] ?? null)

/**
 * Connects a Reddit account with OAuth 2.0 (a "web app": HTTP Basic client authentication,
 * duration=permanent for a refresh token). Access tokens last a day; the refresh token lasts until
 * the person revokes the app, so a refused refresh (invalid_grant) means connecting again.
 */
export const make = (deps: { readonly oauth: OAuth2Client; readonly api: RedditApi }): Connector => ({
  platform: "reddit",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const at = yield* Clock.currentTimeMillis
      const me = yield* deps.api.me(tokens.accessToken)
      return [
        {
          profile: {
            externalId: me.id,
            name: me.subreddit?.title?.trim() || me.name,
            username: me.name,
            avatarUrl: avatarOf(me.icon_img)
          },
          credentials: credentialsOf(tokens, at)
        }
      ]
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(new GrantRevoked({ message: "Reddit gave no refresh token for this account; connect it again." }))
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          return credentialsOf(tokens, yield* Clock.currentTimeMillis)
        }).pipe(Effect.mapError(refreshError))
})
