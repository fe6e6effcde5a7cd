import { Clock, Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { fail } from "../../../domain/errors.ts"
import { longLivedCredentials, type MetaLoginClient } from "../meta/auth.ts"
import { connectError, refreshError } from "../meta/errors.ts"
import type { Graph } from "../meta/graph.ts"
import { type FacebookLogin, linkedInstagramConnection, noPagesMessage } from "../meta/pages.ts"
import { api } from "./api.ts"

/** Instagram Login: its app's login client and graph.instagram.com. */
export interface InstagramLogin {
  readonly login: MetaLoginClient
  readonly graph: Graph
}

/**
 * Connects Instagram professional accounts. With Instagram Login (INSTAGRAM_*): the code gives a
 * 1-hour token, exchanged at once for a 60-day one (ig_exchange_token), renewed with itself before
 * it ends (ig_refresh_token; `refresh`). With Facebook Login only (FACEBOOK_*): the professional
 * accounts linked to the person's Pages, each publishing with its Page's token, which does not expire.
 */
export const make = (deps: {
  readonly instagram: InstagramLogin | null
  readonly facebook: FacebookLogin | null
}): Connector => {
  const viaInstagram = (ig: InstagramLogin, params: Readonly<Record<string, string>>, callbackUrl: string) =>
    Effect.gen(function* () {
      const shortLived = yield* ig.login.exchangeCode(params, callbackUrl)
      const long = yield* ig.login.tokenGet(ig.graph.url("/access_token", true), {
        grant_type: "ig_exchange_token",
        client_secret: ig.login.clientSecret(),
        access_token: shortLived.accessToken
      })
      const at = yield* Clock.currentTimeMillis
      const me = yield* api.me(ig.graph, long.accessToken)
      const id = me.user_id === undefined ? me.id : String(me.user_id)
      const connection: Connection = {
        profile: {
          externalId: id,
          name: me.name ?? me.username,
          username: me.username,
          avatarUrl: me.profile_picture_url ?? null
        },
        credentials: longLivedCredentials(long, at, { login: "instagram" })
      }
      return [connection]
    })

  const viaFacebook = (fb: FacebookLogin, params: Readonly<Record<string, string>>, callbackUrl: string) =>
    Effect.gen(function* () {
      const granted = yield* fb.complete(params, callbackUrl)
      const linked: ReadonlyArray<Connection> = granted.pages.flatMap((page) => {
        const c = linkedInstagramConnection(page)
        return c === null ? [] : [c]
      })
      if (linked.length === 0)
        return yield* Effect.fail(
          fail(
            "upstream_rejected",
            { platform: "instagram" },
            noPagesMessage(granted, "Instagram professional account linked to a Page")
          )
        )
      return linked
    })

  return {
    platform: "instagram",
    begin: ({ state, callbackUrl }) =>
      deps.instagram !== null
        ? deps.instagram.login.authorizationUrl({ state, callbackUrl })
        : deps.facebook!.authorizationUrl({ state, callbackUrl }),
    complete: ({ params, callbackUrl }) =>
      Effect.mapError(
        deps.instagram !== null
          ? viaInstagram(deps.instagram, params, callbackUrl)
          : viaFacebook(deps.facebook!, params, callbackUrl),
        connectError("Instagram", "instagram")
      ),
    refresh: (credentials) => {
      const ig = deps.instagram
      // Page tokens (Facebook Login) do not expire: nothing to renew.
      if (credentials.extra?.login === "facebook" || ig === null) return Effect.succeed(credentials)
      return Effect.gen(function* () {
        const token = yield* ig.login.tokenGet(ig.graph.url("/refresh_access_token", true), {
          grant_type: "ig_refresh_token",
          access_token: credentials.accessToken
        })
        return longLivedCredentials(token, yield* Clock.currentTimeMillis, credentials.extra)
      }).pipe(Effect.mapError(refreshError("Instagram")))
    }
  }
}
