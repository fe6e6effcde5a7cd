import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { HeraldApi } from "./api.ts"
import { HttpSettings } from "../../application/config.ts"
import { bodyLimit } from "./bodyLimit.ts"
import { answerClientErrors } from "./clientErrors.ts"
import { handleErrors, routePatterns } from "./errorMiddleware.ts"
import * as Accounts from "./handlers/accounts.ts"
import * as App from "./handlers/app.ts"
import * as Compose from "./handlers/compose.ts"
import * as Claim from "./handlers/claim.ts"
import * as Keys from "./handlers/keys.ts"
import * as Media from "./handlers/media.ts"
import * as Planning from "./handlers/planning.ts"
import * as Metrics from "./handlers/metrics.ts"
import * as Posts from "./handlers/posts.ts"
import * as Signup from "./handlers/signup.ts"
import * as Webhooks from "./handlers/webhooks.ts"
import * as FastPaths from "./fastPaths.ts"
import * as Files from "./files.ts"
import * as Pages from "./pages/routes.ts"
import * as AppPages from "./pages/appRoutes.ts"
import * as InboxPages from "./pages/inboxRoutes.ts"
import * as ConnectForm from "./pages/connectForm.ts"
import * as Consent from "./pages/consent.ts"
import * as OAuth from "./oauth.ts"
import * as ConnectStart from "./pages/connectStart.ts"
import * as Security from "./security.ts"
import * as UndeclaredErrors from "./undeclaredErrors.ts"
import { docsPageMiddleware, securityHeaders } from "./securityHeaders.ts"
import * as Mcp from "../mcp/route.ts"

const pageRoutes = [
  { method: "GET", path: "/connect/:platform/callback" },
  { method: "GET", path: "/claim" },
  { method: "POST", path: "/claim" },
  { method: "GET", path: "/signin" },
  { method: "POST", path: "/signin" },
  { method: "GET", path: "/signin/complete" },
  { method: "POST", path: "/signin/complete" },
  { method: "POST", path: "/signout" },
  { method: "GET", path: "/app" },
  { method: "GET", path: "/app/posts" },
  { method: "GET", path: "/app/accounts" },
  { method: "GET", path: "/app/keys" },
  { method: "GET", path: "/app/settings" },
  { method: "GET", path: "/app/compose" },
  { method: "GET", path: "/app/assets/vendor/:name" },
  { method: "GET", path: "/app/assets/:name" },
  { method: "GET", path: "/inbox" },
  { method: "POST", path: "/inbox" },
  { method: "GET", path: "/api/v1/openapi.json" },
  { method: "GET", path: "/api/v1/docs" },
  { method: "POST", path: "/mcp" },
  ...Consent.routes,
  ...OAuth.oauthRoutes
]

/**
 * Around every request, outermost first: security headers on every answer; every failure as the
 * envelope; the route's body limit. (A body an endpoint leaves unread is the platform's: it drains
 * up to 256 KiB of it after the answer, then closes the connection.)
 */
const hostMiddleware = HttpRouter.middleware(
  Effect.gen(function* () {
    const settings = yield* HttpSettings
    const limited = bodyLimit(settings.bodyLimits)
    const handled = handleErrors(routePatterns(HeraldApi, pageRoutes))
    return <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      securityHeaders(handled(limited(app)))
  }),
  { global: true }
)

/** Every route of the HTTP host: the REST API, its OpenAPI document and docs page, and the web pages. */
export const routesLayer = Layer.mergeAll(
  HttpApiBuilder.layer(HeraldApi, { openapiPath: "/api/v1/openapi.json" }).pipe(
    Layer.provide([
      Signup.layer,
      Claim.layer,
      Accounts.layer,
      Posts.layer,
      Planning.layer,
      Metrics.layer,
      Keys.layer,
      Media.layer,
      Webhooks.layer,
      Webhooks.eventsLayer,
      App.layer,
      Compose.layer
    ]),
    Layer.provide([Security.layer, UndeclaredErrors.layer])
  ),
  // Scalar's default fonts come from its CDN; the page's policy allows this origin only.
  HttpApiScalar.layer(HeraldApi, { path: "/api/v1/docs", scalar: { withDefaultFonts: false } }).pipe(
    Layer.provide(docsPageMiddleware.layer)
  ),
  Pages.layer,
  AppPages.layer,
  InboxPages.layer,
  ConnectForm.layer,
  Consent.layer,
  OAuth.layer,
  ConnectStart.layer,
  Files.layer,
  Mcp.layer,
  hostMiddleware
)

export interface NodeServerOptions {
  readonly port: number
  readonly host?: string
  readonly accessLog?: boolean
  /** Answer POST /api/v1/posts by key in front of the router (fastPaths.ts). On unless false. */
  readonly fastPaths?: boolean
  /** Told, for each request, whether the fast path took it (tests check it is the path they test). */
  readonly onFastPath?: (taken: boolean) => void
}

/** The Node HTTP server the routes are served on, with the fast path in front of the router. */
export const nodeServerLayer = (options: NodeServerOptions) =>
  options.fastPaths === false
    ? NodeHttpServer.layer(() => answerClientErrors(createServer()), { port: options.port, host: options.host })
    : Layer.unwrap(
        Effect.map(FastPaths.make, (make) => {
          const fast = make({ accessLog: options.accessLog === true })
          const observed = options.onFastPath
          const listener =
            observed === undefined
              ? fast
              : (req: IncomingMessage, res: ServerResponse) => {
                  const taken = fast(req, res)
                  observed(taken)
                  return taken
                }
          return NodeHttpServer.layer(() => answerClientErrors(FastPaths.server(listener)), {
            port: options.port,
            host: options.host
          })
        })
      )

/** Serves the routes on a Node HTTP server (port 0 picks a free port). */
export const serverLayer = (port: number, options: { readonly accessLog?: boolean } = {}) =>
  HttpRouter.serve(routesLayer, { disableListenLog: false, disableLogger: !options.accessLog }).pipe(
    Layer.provide(nodeServerLayer({ port, accessLog: options.accessLog }))
  )
