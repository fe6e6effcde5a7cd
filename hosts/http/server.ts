import { createServer } from "node:http"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { NodeHttpServer } from "@effect/platform-node"
import { HeraldApi } from "./api.ts"
import { errorMiddleware, routePatterns } from "./errorMiddleware.ts"
import * as Accounts from "./handlers/accounts.ts"
import * as Claim from "./handlers/claim.ts"
import * as Keys from "./handlers/keys.ts"
import * as Media from "./handlers/media.ts"
import * as Posts from "./handlers/posts.ts"
import * as Signup from "./handlers/signup.ts"
import * as Files from "./files.ts"
import * as Pages from "./pages/routes.ts"
import * as Security from "./security.ts"
import * as Mcp from "../mcp/route.ts"

const pageRoutes = [
  { method: "GET", path: "/connect/:platform/callback" }, { method: "GET", path: "/claim" }, { method: "POST", path: "/claim" },
  { method: "GET", path: "/signin" }, { method: "POST", path: "/signin" }, { method: "GET", path: "/signin/complete" },
  { method: "POST", path: "/signout" }, { method: "GET", path: "/app" }, { method: "GET", path: "/api/v1/openapi.json" },
  { method: "GET", path: "/api/v1/docs" }, { method: "POST", path: "/mcp" }
]

/** Every route of the HTTP host: the REST API, its OpenAPI document and docs page, and the web pages. */
export const routesLayer = Layer.mergeAll(
  HttpApiBuilder.layer(HeraldApi, { openapiPath: "/api/v1/openapi.json" }).pipe(
    Layer.provide([Signup.layer, Claim.layer, Accounts.layer, Posts.layer, Keys.layer, Media.layer]),
    Layer.provide(Security.layer)
  ),
  HttpApiScalar.layer(HeraldApi, { path: "/api/v1/docs" }),
  Pages.layer,
  Files.layer,
  Mcp.layer,
  errorMiddleware(routePatterns(HeraldApi, pageRoutes))
)

/** Serves the routes on a Node HTTP server (port 0 picks a free port). */
export const serverLayer = (port: number, options: { readonly accessLog?: boolean } = {}) =>
  HttpRouter.serve(routesLayer, { disableListenLog: false, disableLogger: !options.accessLog }).pipe(Layer.provide(NodeHttpServer.layer(createServer, { port })))
