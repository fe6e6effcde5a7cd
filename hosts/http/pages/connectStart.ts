import { Effect, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HeraldConfig } from "../../../application/config.ts"
import { continueConnect, inspectConnectLink } from "../../../application/usecases/accounts.ts"
import { authenticateSession } from "../../../application/usecases/auth.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import { platformNames } from "../../../domain/platforms.ts"
import type { Locale } from "../../../domain/workspace.ts"
import { isBodyTooLarge } from "../errors.ts"
import { SESSION_COOKIE } from "../security.ts"
import { escapeHtml, page, pagePolicy } from "./html.ts"
import { fromAnotherSite } from "./sameOrigin.ts"
import { errorPage, localeOf, say } from "./words.ts"

/** The browser's own random value a continued connect link is bound to (RFC 9700 section 4.7). */
export const CONNECT_COOKIE = "herald_connect"

type Services =
  | Effect.Services<ReturnType<typeof inspectConnectLink>>
  | Effect.Services<ReturnType<typeof continueConnect>>
  | Effect.Services<ReturnType<typeof authenticateSession>>

/** The workspace this browser is signed in to, if any (an ended session counts as none). */
const signedInTo = Effect.gen(function* () {
  const token = (yield* HttpServerRequest.HttpServerRequest).cookies[SESSION_COOKIE]
  if (token === undefined || token === "") return null
  const session = yield* Effect.result(authenticateSession(token))
  return Result.isSuccess(session) ? session.success.actor.workspaceId : null
})

const startPage = (
  platform: string,
  state: string,
  link: Effect.Success<ReturnType<typeof inspectConnectLink>>,
  locale: Locale
) => {
  const network = platformNames[link.platform] ?? platform
  const name = escapeHtml(link.askedBy.name)
  const who = say(locale, link.askedBy.kind === "key" ? "connect.byKey" : "connect.byPerson", { name })
  // A form's redirect is held to form-action too: the button may lead on to the network's own origin.
  const nextOrigin = URL.canParse(link.next) ? new URL(link.next).origin : "'self'"
  const shown = page(
    say(locale, "connect.startTitle", { network }),
    `<p>${say(locale, "connect.startBody", { network: escapeHtml(network), workspace: escapeHtml(link.workspaceName), who })}</p>
<p>${escapeHtml(say(locale, "connect.startWarning"))}</p>
<form method="post" action="/connect/${escapeHtml(platform)}/start"><input type="hidden" name="state" value="${escapeHtml(state)}"><p><button>${escapeHtml(say(locale, "connect.continue", { network }))}</button></p></form>`,
    200,
    locale
  )
  return HttpServerResponse.setHeader(
    shown,
    "content-security-policy",
    pagePolicy([]).replace("form-action 'self'", `form-action 'self' ${nextOrigin}`)
  )
}

/**
 * GET /connect/{platform}/start: the page a connect link opens, naming the workspace and who asked;
 * its button (a POST from this page) binds the link to this browser and goes on to the network.
 */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const config = yield* HeraldConfig
    const secure = config.publicUrl.startsWith("https://")
    const publicOrigin = new URL(config.publicUrl).origin
    const run = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      effect.pipe(
        Effect.catch((e) => Effect.map(HttpServerRequest.HttpServerRequest, (r) => errorPage(e, localeOf(r)))),
        Effect.map((r) => HttpServerResponse.setHeaders(r, { "cache-control": "no-store" })),
        Effect.provideContext(services)
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
    const platformOf = Effect.map(HttpRouter.params, (p) => p.platform ?? "")

    return [
      HttpRouter.route(
        "GET",
        "/connect/:platform/start",
        run(
          Effect.gen(function* () {
            const platform = yield* platformOf
            const request = yield* HttpServerRequest.HttpServerRequest
            const state = new URL(request.url, "http://x").searchParams.get("state") ?? ""
            const link = yield* inspectConnectLink(platform, state, yield* signedInTo)
            return startPage(platform, state, link, localeOf(request))
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/connect/:platform/start",
        run(
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            if (fromAnotherSite(request.headers, publicOrigin))
              return yield* Effect.fail(
                fail("csrf_failed", undefined, "This form was sent from another site, so Herald did not act on it.")
              )
            const text = yield* Effect.catch(request.text, (error) =>
              isBodyTooLarge(error) ? Effect.die(error) : Effect.succeed("")
            )
            const state = new URLSearchParams(text).get("state") ?? ""
            const { next, browser } = yield* continueConnect(
              yield* platformOf,
              state,
              yield* signedInTo,
              request.cookies[CONNECT_COOKIE] ?? null
            )
            // Lax: the network's redirect back to the callback is a top-level GET, which carries it. One value
            // per browser (kept when it has one), so links continued side by side each stay bound.
            return HttpServerResponse.setCookieUnsafe(
              HttpServerResponse.redirect(next, { status: 303 }),
              CONNECT_COOKIE,
              browser,
              { httpOnly: true, sameSite: "lax", secure, path: "/connect/", maxAge: "1 hour" }
            )
          })
        )
      )
    ]
  })
)
