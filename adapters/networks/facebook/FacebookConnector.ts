import { Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { fail } from "../../../domain/errors.ts"
import { connectError } from "../meta/errors.ts"
import { type FacebookLogin, linkedInstagramConnection, noPagesMessage, pageConnection } from "../meta/pages.ts"

/**
 * Connects Facebook Pages. The person chooses the Pages (and their linked Instagram accounts) in
 * Facebook's own dialog; every Page the grant gives becomes its own Herald account holding its Page
 * token (from a long-lived user token, so it does not expire), and each linked Instagram
 * professional account becomes an Instagram account publishing with that token. Pages Herald
 * cannot post to (no Page token, no content task) are left out and logged with the reason; when
 * none is left, the connection fails with those reasons. No refresh: Page tokens do not expire, and
 * a revoked one needs the person (reconnect).
 */
export const make = (deps: { readonly login: FacebookLogin }): Connector => ({
  platform: "facebook",
  begin: ({ state, callbackUrl }) => deps.login.authorizationUrl({ state, callbackUrl }),
  complete: ({ params, callbackUrl }) =>
    Effect.gen(function* () {
      const granted = yield* deps.login.complete(params, callbackUrl)
      if (granted.pages.length === 0)
        return yield* Effect.fail(
          fail(
            "upstream_rejected",
            { platform: "facebook", refused: granted.refused.map((r) => r.name) },
            noPagesMessage(granted, "Page")
          )
        )
      for (const r of granted.refused)
        yield* Effect.logWarning("a Facebook Page was not connected").pipe(
          Effect.annotateLogs({ page: r.name, why: r.why })
        )
      return granted.pages.flatMap((page): ReadonlyArray<Connection> => {
        const instagram = linkedInstagramConnection(page)
        return instagram === null ? [pageConnection(page)] : [pageConnection(page), instagram]
      })
    }).pipe(Effect.mapError(connectError("Facebook", "facebook")))
})
