import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { connectWithFormFields, inspectConnectState } from "../../../application/usecases/accounts.ts"
import { completeFormConnect } from "../../../application/usecases/connectForm.ts"
import { HeraldConfig, HttpSettings } from "../../../application/config.ts"
import { clientBucket } from "../clientAddress.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { Locale } from "../../../domain/workspace.ts"
import type { ConnectForm } from "../../../adapters/networks/shared/connectForm.ts"
import { networks } from "../../networks.ts"
import { errorResponse, toApiFailure } from "../errors.ts"
import { CONNECT_COOKIE } from "./connectStart.ts"
import { connectedPage } from "./connected.ts"
import { escapeHtml, page } from "./html.ts"
import { errorPage, localeOf, say } from "./words.ts"

/** The networks that connect through a Herald form, each declared in its own folder. */
const forms: Readonly<Record<string, ConnectForm>> = Object.fromEntries(
  networks.flatMap((n) => (n.connectForm === undefined ? [] : [[n.platform, n.connectForm]]))
)

/**
 * These pages take a password: no framing, no scripts, no caching, the form posts only to Herald, and
 * the link's state (in the URL) is not sent to other sites as a referrer. `same-origin`, not
 * `no-referrer`: with no-referrer a browser sends `Origin: null` on the form's POST.
 */
const secured = (response: HttpServerResponse.HttpServerResponse, formAction = "'self'") =>
  HttpServerResponse.setHeaders(response, {
    "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store"
  })

const failurePage = (error: HeraldError, wantsJson: boolean, locale: Locale) =>
  wantsJson ? errorResponse(toApiFailure(error)) : errorPage(error, locale)

const formPage = (platform: string, form: ConnectForm, state: string, locale: Locale) => {
  const words = form.words[locale]
  return page(
    words.title,
    `${words.intro}
<form method="post" action="/connect/${escapeHtml(platform)}/callback"><input type="hidden" name="state" value="${escapeHtml(state)}">
${form.fields.map((f) => `<p><label>${escapeHtml(words.labels[f.name] ?? f.name)}<br><input name="${f.name}" type="${f.type}" placeholder="${escapeHtml(f.placeholder)}" autocomplete="${f.autocomplete}" required spellcheck="false" autocapitalize="none"></label></p>`).join("\n")}
<p><button>${escapeHtml(say(locale, "connect.submit"))}</button></p></form>`,
    200,
    locale
  )
}

/** Herald's own connect form (GET /connect/{platform}/form) and where it posts (POST /connect/{platform}/callback). */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<
      | Effect.Services<ReturnType<typeof completeFormConnect>>
      | Effect.Services<ReturnType<typeof inspectConnectState>>
      | Effect.Services<ReturnType<typeof connectWithFormFields>>
    >()
    const origin = new URL((yield* HeraldConfig).publicUrl).origin
    const client = clientBucket(yield* HttpSettings)
    const respond = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, HeraldError, R>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const wantsJson = (request.headers.accept ?? "").includes("application/json")
        // A form that leads on to the network's own page is answered with a redirect there, which form-action governs too.
        const continues = forms[(yield* HttpRouter.params).platform ?? ""]?.continues === true
        const locale = localeOf(request)
        return secured(
          yield* effect.pipe(Effect.catch((e) => Effect.succeed(failurePage(e, wantsJson, locale)))),
          continues ? "'self' https:" : "'self'"
        )
      }).pipe(Effect.provideContext(services)) as Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        never,
        HttpServerRequest.HttpServerRequest
      >

    return [
      HttpRouter.route(
        "GET",
        "/connect/:platform/form",
        respond(
          Effect.gen(function* () {
            const platform = (yield* HttpRouter.params).platform ?? ""
            const request = yield* HttpServerRequest.HttpServerRequest
            const state = new URL(request.url, "http://x").searchParams.get("state") ?? ""
            const form = forms[platform]
            if (form === undefined)
              return yield* Effect.fail(
                fail(
                  "platform_unavailable",
                  { platform, available: Object.keys(forms) },
                  `${platform} does not connect through a Herald form.`
                )
              )
            // Only in the browser that continued from the start page: the form is no way around it.
            yield* inspectConnectState(platform, state, request.cookies[CONNECT_COOKIE] ?? null)
            return formPage(platform, form, state, localeOf(request))
          })
        )
      ),
      HttpRouter.route(
        "POST",
        "/connect/:platform/callback",
        respond(
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            // A form that takes a password (or registers Herald somewhere) is only ever sent from Herald's own page.
            if (request.headers.origin !== origin)
              return yield* Effect.fail(
                fail("csrf_failed", {}, "This form can only be sent from Herald's own connect page.")
              )
            const platform = (yield* HttpRouter.params).platform ?? ""
            const form = forms[platform]
            if (form === undefined)
              return yield* Effect.fail(
                fail(
                  "platform_unavailable",
                  { platform, available: Object.keys(forms) },
                  `${platform} does not connect through a Herald form.`
                )
              )
            const fields = new URLSearchParams(yield* Effect.orElseSucceed(request.text, () => ""))
            const params = Object.fromEntries(
              ["state", ...form.fields.map((f) => f.name)].map((name) => [name, fields.get(name) ?? ""])
            )
            const wantsJson = (request.headers.accept ?? "").includes("application/json")
            if (form.continues === true) {
              const { url } = yield* connectWithFormFields(platform, params, request.cookies[CONNECT_COOKIE] ?? null)
              return wantsJson
                ? HttpServerResponse.jsonUnsafe({ url })
                : HttpServerResponse.redirect(url, { status: 303 })
            }
            const result = yield* completeFormConnect(
              platform,
              params,
              request.cookies[CONNECT_COOKIE] ?? null,
              client(request)
            )
            return wantsJson ? HttpServerResponse.jsonUnsafe(result) : connectedPage(result.accounts, localeOf(request))
          })
        )
      )
    ]
  })
)
