import { Effect, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HeraldConfig, HttpSettings } from "../../application/config.ts"
import { registerClient } from "../../application/usecases/oauth/clients.ts"
import { revokeToken, token, type TokenParams } from "../../application/usecases/oauth/tokens.ts"
import {
  authorizationServerMetadata,
  type OAuthRefusal,
  protectedResourceMetadata,
  refusalStatus,
  refuse
} from "../../domain/oauth.ts"
import { textProblem } from "../../domain/text.ts"
import { clientBucket } from "./clientAddress.ts"
import { isBodyTooLarge } from "./errors.ts"

// Herald's authorization server for its MCP endpoint, beside the protected resource's metadata: the
// discovery documents (RFC 9728, RFC 8414), registration (RFC 7591), the token endpoint and revocation
// (RFC 7009). The consent page (/oauth/authorize) is with the other pages. Errors are OAuth's, not the envelope.

type Services =
  | Effect.Services<ReturnType<typeof registerClient>>
  | Effect.Services<ReturnType<typeof token>>
  | Effect.Services<ReturnType<typeof revokeToken>>
  | HeraldConfig

/** Browser-based MCP clients read these from other origins; none of them uses cookies. */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version"
}
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...CORS, ...headers } })

export const refusalResponse = (refusal: OAuthRefusal) =>
  json({ error: refusal.error, error_description: refusal.description }, refusalStatus(refusal), {
    ...NO_STORE,
    ...(refusal.error === "invalid_client" ? { "www-authenticate": 'Bearer realm="herald"' } : {}),
    ...(refusal.retryAfterSeconds === undefined ? {} : { "retry-after": String(refusal.retryAfterSeconds) })
  })

/** A form body's fields; a repeated field or text PostgreSQL cannot hold is invalid_request (RFC 6749 section 3.2). */
const formParams = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.catch(request.text, (error) => (isBodyTooLarge(error) ? Effect.die(error) : Effect.succeed(""))).pipe(
    Effect.flatMap((text) => {
      const params: Record<string, string> = {}
      for (const [name, value] of new URLSearchParams(text)) {
        if (name in params) return Effect.fail(refuse("invalid_request", `${name} is given more than once.`))
        if (textProblem(value, "prose") !== null) return Effect.fail(refuse("invalid_request", `${name} is not text.`))
        params[name] = value
      }
      return Effect.succeed(params as TokenParams)
    })
  )
)

const jsonBody = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.catch(request.text, (error) => (isBodyTooLarge(error) ? Effect.die(error) : Effect.succeed(""))).pipe(
    Effect.flatMap((text) => {
      try {
        return Effect.succeed(JSON.parse(text) as unknown)
      } catch {
        return Effect.fail(refuse("invalid_client_metadata", "The body is not JSON."))
      }
    })
  )
)

export const PROTECTED_RESOURCE_PATHS = [
  "/.well-known/oauth-protected-resource",
  "/.well-known/oauth-protected-resource/mcp"
] as const
export const AUTHORIZATION_SERVER_PATHS = [
  "/.well-known/oauth-authorization-server",
  // Clients that know only OpenID Connect discovery look here; the document is the same.
  "/.well-known/openid-configuration"
] as const
const POST_PATHS = ["/oauth/register", "/oauth/token", "/oauth/revoke"] as const

/** The routes, for the host's 404/405 table. */
export const oauthRoutes = [
  ...[...PROTECTED_RESOURCE_PATHS, ...AUTHORIZATION_SERVER_PATHS].map((path) => ({ method: "GET", path })),
  ...POST_PATHS.map((path) => ({ method: "POST", path })),
  ...[...PROTECTED_RESOURCE_PATHS, ...AUTHORIZATION_SERVER_PATHS, ...POST_PATHS].map((path) => ({
    method: "OPTIONS",
    path
  }))
]

export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<Services>()
    const config = yield* HeraldConfig
    const bucket = clientBucket(yield* HttpSettings)
    const run = <A>(
      effect: Effect.Effect<A, OAuthRefusal, Services | HttpServerRequest.HttpServerRequest>,
      answer: (a: A) => HttpServerResponse.HttpServerResponse
    ) =>
      effect.pipe(
        Effect.result,
        Effect.map((result) => (Result.isSuccess(result) ? answer(result.success) : refusalResponse(result.failure))),
        Effect.provideContext(services)
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
    const resource = protectedResourceMetadata(config.publicUrl)
    const server = authorizationServerMetadata(config.publicUrl)
    const preflight = HttpServerResponse.empty({ status: 204, headers: { ...CORS, "access-control-max-age": "86400" } })
    return [
      ...PROTECTED_RESOURCE_PATHS.map((path) => HttpRouter.route("GET", path, Effect.succeed(json(resource)))),
      ...AUTHORIZATION_SERVER_PATHS.map((path) => HttpRouter.route("GET", path, Effect.succeed(json(server)))),
      ...[...PROTECTED_RESOURCE_PATHS, ...AUTHORIZATION_SERVER_PATHS, ...POST_PATHS].map((path) =>
        HttpRouter.route("OPTIONS", path, Effect.succeed(preflight))
      ),
      HttpRouter.route(
        "POST",
        "/oauth/register",
        run(
          Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            Effect.flatMap(jsonBody, (body) => registerClient(body, bucket(request)))
          ),
          (client) => json(client, 201, NO_STORE)
        )
      ),
      HttpRouter.route(
        "POST",
        "/oauth/token",
        run(Effect.flatMap(formParams, token), (tokens) => json(tokens, 200, NO_STORE))
      ),
      // RFC 7009 section 2.2: 200 whether or not the token was known.
      HttpRouter.route(
        "POST",
        "/oauth/revoke",
        run(Effect.flatMap(formParams, revokeToken), () => json({}, 200, NO_STORE))
      )
    ]
  })
)
