import { Effect, Option, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HeraldConfig } from "../../../application/config.ts"
import { authenticateSession, cachedWorkspace } from "../../../application/usecases/auth.ts"
import {
  type AuthorizationProblem,
  type AuthorizationRequest,
  approveAuthorization,
  checkAuthorizationRequest,
  denyAuthorization
} from "../../../application/usecases/oauth/authorize.ts"
import { catalogue, type ErrorCode, fail, type HeraldError, messageOf } from "../../../domain/errors.ts"
import { textProblem } from "../../../domain/text.ts"
import { isBodyTooLarge } from "../errors.ts"
import { SESSION_COOKIE } from "../security.ts"
import { escapeHtml, page, pagePolicy } from "./html.ts"
import { fromAnotherSite } from "./sameOrigin.ts"
import { type ConsentLocale, consentWords, localeOf } from "./consentWords.ts"

// The page where a person lets an AI assistant's MCP client act in their workspace (Herald's
// authorization endpoint). A GET only shows; the POST, from this page with the session's CSRF secret, decides.

type Services =
  | Effect.Services<ReturnType<typeof checkAuthorizationRequest>>
  | Effect.Services<ReturnType<typeof approveAuthorization>>
  | Effect.Services<ReturnType<typeof authenticateSession>>
  | HeraldConfig

/** Where sign-in brings the person back to: set while the consent page asks them to sign in. */
export const RETURN_COOKIE = "herald_return"
export const AUTHORIZE_PATH = "/oauth/authorize"

/** The request's parameters; a repeated one or text PostgreSQL cannot hold makes the request unusable. */
const paramsOf = (entries: URLSearchParams, skip: ReadonlySet<string> = new Set()) => {
  const params: Record<string, string> = {}
  for (const [name, value] of entries) {
    if (skip.has(name)) continue
    if (name in params || textProblem(value, "prose") !== null || textProblem(name, "prose") !== null) return null
    params[name] = value
  }
  return params
}

const FORM_FIELDS = new Set(["csrf", "decision", "mode", "name"])

const problemPage = (description: string, status = 400) =>
  page(
    "This connection cannot go on",
    `<p>${escapeHtml(description)}</p><p class="muted">Nothing was shared. You can close this page and try again from your assistant.</p>`,
    status
  )

const redirect = (location: string) => HttpServerResponse.redirect(location, { status: 303 })

/** The form may send the person on to the client's redirect URI (CSP form-action covers redirects after a submit). */
const consentPolicy = (redirectUri: string) => {
  const url = new URL(redirectUri)
  const target = url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol
  return pagePolicy([]).replace("form-action 'self'", `form-action 'self' ${target}`)
}

const hidden = (params: Readonly<Record<string, string>>) =>
  Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("")

/** The consent form: who asks (in the client's own words, marked as such), for which workspace, with which powers. */
const consentPage = (
  request: AuthorizationRequest,
  workspace: { readonly name: string; readonly locale: ConsentLocale },
  email: string,
  csrf: string
) => {
  const w = consentWords[workspace.locale]
  const client = request.client
  const back = new URL(request.redirectUri)
  const origin = back.protocol === "http:" || back.protocol === "https:" ? back.host : back.protocol
  const identity = client.kind === "document" ? w.document(escapeHtml(client.id)) : w.registered(escapeHtml(client.id))
  const body = `<p>${w.asks(escapeHtml(workspace.name), escapeHtml(email))}</p>
<div class="post"><p>${w.callsItself(escapeHtml(client.name))} <span class="muted">${w.ownClaim}</span></p>
<p class="muted">${identity} ${w.goesBack(escapeHtml(origin))}</p></div>
<p>${w.powers}</p>
<form method="post" action="${AUTHORIZE_PATH}">${hidden(request.params)}<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<fieldset><legend>${w.postsLegend}</legend>
<p><label><input type="radio" name="mode" value="asks-first" checked> ${w.asksFirst}</label></p>
<p><label><input type="radio" name="mode" value="may-publish"> ${w.mayPublish}</label></p></fieldset>
<p><label>${w.nameLabel} <input name="name" maxlength="100"></label></p>
<p><button name="decision" value="allow">${w.allow}</button> <button class="secondary" name="decision" value="deny">${w.deny}</button></p></form>
<p class="muted">${w.revokeLater}</p>`
  return HttpServerResponse.setHeader(
    page(w.title, body, 200, workspace.locale),
    "content-security-policy",
    consentPolicy(request.redirectUri)
  )
}

/** Not signed in: the sign-in form; the e-mailed link brings the person back here (the return cookie). */
const signInFirst = (request: AuthorizationRequest, location: string, secure: boolean, locale: ConsentLocale) => {
  const w = consentWords[locale]
  return HttpServerResponse.setCookieUnsafe(
    page(
      w.signInTitle,
      `<p>${w.signInFirst(escapeHtml(request.client.name))}</p>
<form method="post" action="/signin"><label>${w.email} <input name="email" type="email" required autocomplete="email"></label> <button>${w.sendLink}</button></form>`,
      200,
      locale
    ),
    RETURN_COOKIE,
    location,
    { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: "1 hour" }
  )
}

const errorPage = (error: HeraldError) =>
  problemPage(messageOf(error), catalogue[error.code as ErrorCode]?.status ?? 400)

export const routes = [
  { method: "GET", path: AUTHORIZE_PATH },
  { method: "POST", path: AUTHORIZE_PATH }
]

export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const config = yield* HeraldConfig
    const secure = config.publicUrl.startsWith("https://")
    const publicOrigin = new URL(config.publicUrl).origin
    const run = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      effect.pipe(
        Effect.catch((e) => Effect.succeed(errorPage(e))),
        Effect.provideContext(services)
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>

    /** The request checked; a problem is answered here (a page, or the client's redirect URI). */
    const checked = (params: Record<string, string> | null) =>
      params === null
        ? Effect.succeed(Result.fail(problemPage("The request repeats a parameter or carries text that is not text.")))
        : checkAuthorizationRequest(params).pipe(
            Effect.map((request) => Result.succeed(request)),
            Effect.catch((problem: AuthorizationProblem) =>
              Effect.succeed(
                Result.fail(
                  problem._tag === "Redirect" ? redirect(problem.url) : problemPage(problem.refusal.description)
                )
              )
            )
          )

    const session = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const token = request.cookies[SESSION_COOKIE]
      return token === undefined || token === ""
        ? Effect.succeed(Option.none())
        : authenticateSession(token).pipe(
            Effect.map(Option.some),
            Effect.catch(() => Effect.succeed(Option.none()))
          )
    })

    return [
      HttpRouter.route(
        "GET",
        AUTHORIZE_PATH,
        run(
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const url = new URL(request.url, "http://x")
            const verdict = yield* checked(paramsOf(url.searchParams))
            if (Result.isFailure(verdict)) return verdict.failure
            const signedIn = yield* session
            if (Option.isNone(signedIn))
              return signInFirst(
                verdict.success,
                `${url.pathname}${url.search}`,
                secure,
                localeOf(request.headers["accept-language"])
              )
            const { actor, csrf } = signedIn.value
            const workspace = yield* cachedWorkspace(actor.workspaceId)
            const email = actor.kind === "person" ? actor.email : ""
            return consentPage(
              verdict.success,
              Option.match(workspace, {
                onNone: () => ({ name: "", locale: "en" as const }),
                onSome: (w) => ({ name: w.name, locale: w.locale === "ja" ? ("ja" as const) : ("en" as const) })
              }),
              email,
              csrf
            )
          })
        )
      ),
      HttpRouter.route(
        "POST",
        AUTHORIZE_PATH,
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
            const form = new URLSearchParams(text)
            const signedIn = yield* session
            if (Option.isNone(signedIn) || form.get("csrf") !== signedIn.value.csrf)
              return problemPage("Your session ended or this form is stale. Start again from your assistant.", 403)
            const verdict = yield* checked(paramsOf(form, FORM_FIELDS))
            if (Result.isFailure(verdict)) return verdict.failure
            if (form.get("decision") !== "allow") return redirect(yield* denyAuthorization(verdict.success))
            const name = (form.get("name") ?? "").trim()
            const { redirect: location } = yield* approveAuthorization(signedIn.value.actor, verdict.success, {
              requireApproval: form.get("mode") !== "may-publish",
              name: name === "" ? undefined : name
            })
            return redirect(location)
          })
        )
      )
    ]
  })
)
