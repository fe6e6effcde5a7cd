import { Clock, Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { longLivedCredentials, type MetaLoginClient } from "../meta/auth.ts"
import { connectError, refreshError } from "../meta/errors.ts"
import type { ThreadsApi } from "./api.ts"

/**
 * Connects Threads profiles: the code gives a 1-hour token, exchanged at once for a 60-day one
 * (th_exchange_token), which `refresh` renews with itself before it ends (th_refresh_token).
 */
export const make = (deps: { readonly login: MetaLoginClient; readonly api: ThreadsApi }): Connector => ({
  platform: "threads",
  begin: ({ state, callbackUrl }) => deps.login.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl }) =>
    Effect.gen(function* () {
      const shortLived = yield* deps.login.exchangeCode(params, callbackUrl)
      const long = yield* deps.login.tokenGet(deps.api.graph.url("/access_token", true), {
        grant_type: "th_exchange_token",
        client_secret: deps.login.clientSecret(),
        access_token: shortLived.accessToken
      })
      const at = yield* Clock.currentTimeMillis
      const me = yield* deps.api.me(long.accessToken)
      const connection: Connection = {
        profile: {
          externalId: me.id,
          name: me.name ?? me.username,
          username: me.username,
          avatarUrl: me.threads_profile_picture_url ?? null
        },
        credentials: longLivedCredentials(long, at)
      }
      return [connection]
    }).pipe(Effect.mapError(connectError("Threads", "threads"))),
  refresh: (credentials) =>
    Effect.gen(function* () {
      const token = yield* deps.login.tokenGet(deps.api.graph.url("/refresh_access_token", true), {
        grant_type: "th_refresh_token",
        access_token: credentials.accessToken
      })
      return longLivedCredentials(token, yield* Clock.currentTimeMillis, credentials.extra)
    }).pipe(Effect.mapError(refreshError("Threads")))
})
