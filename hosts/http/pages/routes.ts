import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { completeConnect } from "../../../application/usecases/accounts.ts"
import type { authenticateSession } from "../../../application/usecases/auth.ts"
import { claimWorkspace, inspectClaimLink } from "../../../application/usecases/claim.ts"
import { completeSignIn, requestSignInLink } from "../../../application/usecases/signin.ts"
import { endSession } from "../../../application/usecases/sessions.ts"
import { HeraldConfig } from "../../../application/config.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import { describeTextProblem, textProblem } from "../../../domain/text.ts"
import { isBodyTooLarge } from "../errors.ts"
import { SESSION_COOKIE } from "../security.ts"
import { escapeHtml, page } from "./html.ts"
import { CONNECT_COOKIE } from "./connectStart.ts"
import { connectedPage } from "./connected.ts"
import { errorPage, localeOf, say } from "./words.ts"
import { fromAnotherSite } from "./sameOrigin.ts"
import { AUTHORIZE_PATH, RETURN_COOKIE } from "./consent.ts"

type Services =
  | Effect.Services<ReturnType<typeof completeConnect>>
  | Effect.Services<ReturnType<typeof claimWorkspace>>
  | Effect.Services<ReturnType<typeof completeSignIn>>
  | Effect.Services<ReturnType<typeof requestSignInLink>>
  | Effect.Services<ReturnType<typeof authenticateSession>>
  | HeraldConfig

/**
 * Parameters are checked before anything is looked up or used up: a NUL (which PostgreSQL cannot
 * store) or a lone surrogate in any of them is a 400 page, and no single-use token is spent on it.
 */
const checked = (params: URLSearchParams): Effect.Effect<URLSearchParams, HeraldError> => {
  for (const [name, value] of params) {
    const problem = textProblem(name, "prose") ?? textProblem(value, "prose")
    if (problem !== null) {
      const field = textProblem(name, "prose") === null ? name : "a parameter name"
      return Effect.fail(invalidFields([field], describeTextProblem(field, problem)))
    }
  }
  return Effect.succeed(params)
}

const query = Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) =>
  checked(new URL(r.url, "http://x").searchParams)
)
// A form over the pages' body limit goes on to bodyLimit.ts, which answers 413.
const form = Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) =>
  Effect.catch(r.text, (error) => (isBodyTooLarge(error) ? Effect.die(error) : Effect.succeed(""))).pipe(
    Effect.flatMap((text) => checked(new URLSearchParams(text)))
  )
)

const withSession = (
  response: HttpServerResponse.HttpServerResponse,
  token: string,
  expiresAt: number,
  secure: boolean
) =>
  HttpServerResponse.setCookieUnsafe(response, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires: new Date(expiresAt)
  })

const redirect = (location: string) => HttpServerResponse.redirect(location, { status: 303 })

/** The pages a person sees: claim, sign in, connect callback, and the approval app. */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const config = yield* HeraldConfig
    const secure = config.publicUrl.startsWith("https://")
    const publicOrigin = new URL(config.publicUrl).origin
    const run = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      effect.pipe(
        Effect.catch((e) =>
          Effect.map(HttpServerRequest.HttpServerRequest, (r) =>
            errorPage(e, localeOf(r, new URL(r.url, "http://x").searchParams.get("lang")))
          )
        ),
        Effect.provideContext(services)
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
    // A form that sets or ends a session, or sends mail, must come from Herald's own pages.
    const sameOrigin = Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) =>
      fromAnotherSite(r.headers, publicOrigin)
        ? Effect.fail(
            fail(
              "csrf_failed",
              undefined,
              "This form was sent from another site, so Herald did not act on it. Open the link from your e-mail again."
            )
          )
        : Effect.void
    )

    return [
      HttpRouter.route("GET", "/", Effect.succeed(redirect("/app"))),
      HttpRouter.route(
        "GET",
        "/connect/:platform/callback",
        run(
          Effect.gen(function* () {
            const params = yield* HttpRouter.params
            const q = yield* query
            const browser = (yield* HttpServerRequest.HttpServerRequest).cookies[CONNECT_COOKIE] ?? null
            const result = yield* completeConnect(params.platform ?? "", Object.fromEntries(q), browser)
            const wantsJson = ((yield* HttpServerRequest.HttpServerRequest).headers.accept ?? "").includes(
              "application/json"
            )
            if (wantsJson) return HttpServerResponse.jsonUnsafe(result)
            // Facebook gives several accounts at once (each Page, and the Instagram accounts linked to them).
            return connectedPage(result.accounts, localeOf(yield* HttpServerRequest.HttpServerRequest))
          })
        )
      ),
      HttpRouter.route(
        "GET",
        "/claim",
        run(
          Effect.gen(function* () {
            const token = (yield* query).get("token") ?? ""
            const ws = yield* inspectClaimLink(token)
            const ja = ws.locale === "ja"
            return page(
              ja ? "ワークスペースを受け取る" : "Claim your workspace",
              `<p>${ja ? "ワークスペース" : "Workspace"} <b>${escapeHtml(ws.name)}</b> (${escapeHtml(ws.ownerEmail)})</p>
<form method="post" action="/claim?lang=${ws.locale}"><input type="hidden" name="token" value="${escapeHtml(token)}">
<label>${ja ? "言語" : "Language"} <select name="locale"><option value="en"${ja ? "" : " selected"}>English</option><option value="ja"${ja ? " selected" : ""}>日本語</option></select></label>
<p><button>${ja ? "受け取る" : "Claim workspace"}</button></p></form>`,
              200,
              ws.locale
            )
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/claim",
        run(
          Effect.gen(function* () {
            yield* sameOrigin
            const f = yield* form
            const locale = f.get("locale") === "ja" ? "ja" : f.get("locale") === "en" ? "en" : null
            const { session } = yield* claimWorkspace(f.get("token") ?? "", locale)
            return withSession(redirect("/app"), session.token, session.expiresAt, secure)
          })
        )
      ),
      HttpRouter.route(
        "GET",
        "/signin",
        run(
          Effect.gen(function* () {
            const l = localeOf(yield* HttpServerRequest.HttpServerRequest, (yield* query).get("lang"))
            return page(
              say(l, "signin.title"),
              `<p>${escapeHtml(say(l, "signin.help"))}</p><form method="post" action="/signin?lang=${l}"><input type="hidden" name="lang" value="${l}">
<label>${escapeHtml(say(l, "signin.email"))} <input name="email" type="email" autocomplete="email" required></label> <button>${escapeHtml(say(l, "signin.send"))}</button></form>`,
              200,
              l
            )
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/signin",
        run(
          Effect.gen(function* () {
            yield* sameOrigin
            const f = yield* form
            const l = localeOf(yield* HttpServerRequest.HttpServerRequest, f.get("lang"))
            yield* requestSignInLink(f.get("email") ?? "")
            return page(
              say(l, "signin.sentTitle"),
              `<p>${escapeHtml(say(l, "signin.sent"))}</p><p><a href="/signin?lang=${l}">${escapeHtml(say(l, "signin.again"))}</a></p>`,
              200,
              l
            )
          })
        )
      ),
      // The e-mailed link only shows a button: a GET changes nothing (mail scanners follow links), and a
      // session is set only by the POST, which must come from this page (login CSRF).
      HttpRouter.route(
        "GET",
        "/signin/complete",
        run(
          Effect.gen(function* () {
            const q = yield* query
            const token = q.get("token") ?? ""
            const l = localeOf(yield* HttpServerRequest.HttpServerRequest, q.get("lang"))
            return page(
              say(l, "signin.title"),
              `<form method="post" action="/signin/complete?lang=${l}"><input type="hidden" name="token" value="${escapeHtml(token)}"><p><button>${escapeHtml(say(l, "signin.complete"))}</button></p></form><p>${escapeHtml(say(l, "signin.completeHelp"))}</p>`,
              200,
              l
            )
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/signin/complete",
        run(
          Effect.gen(function* () {
            yield* sameOrigin
            const { session } = yield* completeSignIn((yield* form).get("token") ?? "")
            // Back to the consent page that asked the person to sign in, if one did (only that page: no open redirect).
            const back = (yield* HttpServerRequest.HttpServerRequest).cookies[RETURN_COOKIE]
            if (back?.startsWith(`${AUTHORIZE_PATH}?`))
              return HttpServerResponse.expireCookieUnsafe(
                withSession(redirect(back), session.token, session.expiresAt, secure),
                RETURN_COOKIE,
                { path: "/" }
              )
            return withSession(redirect("/app"), session.token, session.expiresAt, secure)
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/signout",
        run(
          Effect.gen(function* () {
            yield* sameOrigin
            const token = (yield* HttpServerRequest.HttpServerRequest).cookies[SESSION_COOKIE]
            if (token) yield* endSession(token)
            const lang = (yield* form).get("lang")
            const back = lang === "ja" || lang === "en" ? `/signin?lang=${lang}` : "/signin"
            return HttpServerResponse.expireCookieUnsafe(redirect(back), SESSION_COOKIE, { path: "/" })
          })
        )
      )
    ]
  })
)
