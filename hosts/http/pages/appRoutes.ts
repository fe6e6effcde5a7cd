import { Effect, Option, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { authenticateSession, cachedWorkspace } from "../../../application/usecases/auth.ts"
import { SESSION_COOKIE } from "../security.ts"
import { appShell, type View, viewPath, views } from "./app.ts"
import { assetResponse, assets, favicon, vendor, vendorResponse } from "./assets.ts"
import { chooseLocale } from "../../../domain/signup.ts"

type Services =
  | Effect.Services<ReturnType<typeof authenticateSession>>
  | Effect.Services<ReturnType<typeof cachedWorkspace>>

const toSignIn = HttpServerResponse.redirect("/signin", { status: 303 })

/** The app's views (each needs a session, else the sign-in page) and its two files. */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const shellOf = (view: View) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const token = request.cookies[SESSION_COOKIE]
        if (!token) return toSignIn
        const session = yield* Effect.option(authenticateSession(token))
        if (Option.isNone(session) || session.value.actor.kind !== "person") return toSignIn
        const workspace = yield* cachedWorkspace(session.value.actor.workspaceId)
        return appShell({
          view,
          email: session.value.actor.email,
          csrf: session.value.csrf,
          locale: Option.match(workspace, {
            onNone: () =>
              Result.getOrElse(chooseLocale(undefined, request.headers["accept-language"]), () => "en" as const),
            onSome: (w) => w.locale
          }),
          timeZone: Option.match(workspace, { onNone: () => "UTC", onSome: (w) => w.timeZone }),
          draftOwner: `${session.value.actor.workspaceId}:${session.value.actor.personId}`
        })
      }).pipe(Effect.provideContext(services)) as Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        never,
        HttpServerRequest.HttpServerRequest
      >
    return [
      ...views.map((view) => HttpRouter.route("GET", viewPath[view], shellOf(view))),
      HttpRouter.route(
        "GET",
        "/favicon.svg",
        Effect.map(HttpServerRequest.HttpServerRequest, (r) => assetResponse(favicon, r.headers["if-none-match"]))
      ),
      HttpRouter.route(
        "GET",
        "/app/assets/:name",
        Effect.gen(function* () {
          const asset = assets.get((yield* HttpRouter.params).name ?? "")
          if (asset === undefined) return HttpServerResponse.text("Not found", { status: 404 })
          return assetResponse(asset, (yield* HttpServerRequest.HttpServerRequest).headers["if-none-match"])
        })
      ),
      HttpRouter.route(
        "GET",
        "/app/assets/vendor/:name",
        Effect.map(HttpRouter.params, (params) => {
          const asset = vendor.get(params.name ?? "")
          return asset === undefined ? HttpServerResponse.text("Not found", { status: 404 }) : vendorResponse(asset)
        })
      )
    ]
  })
)
