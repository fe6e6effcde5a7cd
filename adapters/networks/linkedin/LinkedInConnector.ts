import { Clock, Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { GrantRevoked } from "../../../application/ports/Connectors.ts"
import { credentialsOf, type OAuth2Client } from "../shared/oauth2.ts"
import type { LinkedInApi } from "./api.ts"
import { connectError, refreshError } from "./errors.ts"

/**
 * Connects a LinkedIn member and, when organizations are on, every page the member may post as:
 * each is its own Herald account (externalId: its URN, the post's author) holding the member's
 * token. Access tokens last 60 days; apps LinkedIn gave refresh tokens renew them until the refresh
 * token's fixed end (365 days from the first consent), others need a person to reconnect in time.
 */
export const make = (deps: {
  readonly oauth: OAuth2Client
  readonly api: LinkedInApi
  readonly organizations: boolean
}): Connector => ({
  platform: "linkedin",
  begin: ({ state, callbackUrl }) => deps.oauth.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl, verifier }) =>
    Effect.gen(function* () {
      const tokens = yield* deps.oauth.exchangeCode({ params, callbackUrl, verifier })
      const credentials = credentialsOf(tokens, yield* Clock.currentTimeMillis)
      const member = yield* deps.api.userInfo(tokens.accessToken)
      const connections: Array<Connection> = [
        {
          profile: {
            externalId: `urn:li:person:${member.sub}`,
            name: member.name,
            username: member.name,
            avatarUrl: member.picture ?? null
          },
          credentials
        }
      ]
      if (!deps.organizations) return connections
      for (const urn of yield* deps.api.postingOrganizations(tokens.accessToken)) {
        const page = yield* deps.api.organization(tokens.accessToken, urn)
        connections.push({
          profile: {
            externalId: urn,
            name: page.localizedName,
            username: page.vanityName ?? page.localizedName,
            avatarUrl: null
          },
          credentials
        })
      }
      return connections
    }).pipe(Effect.mapError(connectError)),
  refresh: (credentials) =>
    credentials.refreshToken === null
      ? Effect.fail(new GrantRevoked({ message: "LinkedIn gave no refresh token for this account; connect it again." }))
      : Effect.gen(function* () {
          const tokens = yield* deps.oauth.refresh(credentials.refreshToken!)
          // LinkedIn's refresh token keeps its first end: an answer without its lifetime keeps the one known.
          const renewed = credentialsOf(tokens, yield* Clock.currentTimeMillis)
          return renewed.refreshExpiresAt === undefined && credentials.refreshExpiresAt != null
            ? { ...renewed, refreshExpiresAt: credentials.refreshExpiresAt }
            : renewed
        }).pipe(Effect.mapError(refreshError))
})
