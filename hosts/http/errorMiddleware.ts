import { Cause, Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { invalidShape, issueOf } from "../../domain/contract/issues.ts"
import { fail } from "../../domain/errors.ts"
import {
  type ApiFailure,
  causeValues,
  defectFailure,
  errorResponse,
  failWith,
  findApiFailure,
  toApiFailure
} from "./errors.ts"

interface RoutePattern {
  readonly method: string
  readonly pattern: RegExp
}

/** Method and path pattern of every endpoint, to tell 405 (known path) from 404. */
interface Route {
  readonly method: string
  readonly path: string
}

interface ApiShape {
  readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, Route>> }>>
}

export const routePatterns = (api: ApiShape, extra: ReadonlyArray<Route> = []): ReadonlyArray<RoutePattern> => {
  const routes: Array<Route> = [...extra]
  for (const group of Object.values(api.groups))
    for (const endpoint of Object.values(group.endpoints)) routes.push({ method: endpoint.method, path: endpoint.path })
  return routes.map((r) => ({
    method: r.method,
    pattern: new RegExp("^" + r.path.replace(/:[A-Za-z]+/g, "[^/]+") + "/?$")
  }))
}

/**
 * Every failure leaves the server as the spec's envelope: domain errors, body and parameter
 * decoding, unknown routes and methods, and defects (500 with a request id, never internals).
 */
export const handleErrors = (routes: ReadonlyArray<RoutePattern>) =>
  // Typed as passing errors through: the router's types expect global middleware to leave them
  // unhandled, but this one is the last word on every failure by design.
  ((httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) =>
    httpEffect.pipe(
      Effect.flatMap((response) =>
        response.status === 415
          ? Effect.succeed(failWith("unsupported_content_type"))
          : response.status === 401 && response.headers["www-authenticate"] === undefined // the spec: every 401 carries WWW-Authenticate (MCP's names its resource metadata)
            ? Effect.succeed(HttpServerResponse.setHeader(response, "www-authenticate", 'Bearer realm="herald"'))
            : Effect.succeed(response)
      ),
      Effect.catchCause((cause) =>
        Effect.gen(function* () {
          const known = findApiFailure(cause)
          if (known) return errorResponse(known)
          const request = yield* HttpServerRequest.HttpServerRequest
          for (const value of causeValues(cause)) {
            if (HttpApiError.HttpApiSchemaError.is(value)) return schemaErrorResponse(value)
            if (HttpApiError.HttpApiPayloadTooLarge.is(value)) return failWith("file_too_large")
            if (isRouteNotFound(value)) return routeNotFound(routes, request)
          }
          if (Cause.hasInterruptsOnly(cause)) return HttpServerResponse.empty({ status: 499 })
          return errorResponse(yield* defectFailure(cause, request.method, request.url))
        })
      )
    )) as unknown as <E, R>(
    effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

/**
 * 405 only when the path is an endpoint's and the method is none of its methods; otherwise 404,
 * also for a path of the right shape the router still did not take (a parameter over its length).
 */
const routeNotFound = (routes: ReadonlyArray<RoutePattern>, request: HttpServerRequest.HttpServerRequest) => {
  const path = request.url.split("?")[0]
  const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
  const method = request.method === "HEAD" ? "GET" : request.method
  if (allowed.length === 0 || allowed.includes(method) || allowed.includes("*")) return failWith("not_found", { path })
  return HttpServerResponse.setHeader(failWith("method_not_allowed", { allowed }), "allow", allowed.join(", "))
}

const isRouteNotFound = (u: unknown): boolean =>
  typeof u === "object" &&
  u !== null &&
  (u as { _tag?: unknown })._tag === "HttpServerError" &&
  (u as { reason?: { _tag?: string } }).reason?._tag === "RouteNotFound"

/** A body, parameter or header that failed its endpoint's schema, as the envelope. */
export const schemaFailure = (error: HttpApiError.HttpApiSchemaError): ApiFailure => {
  const where = error.kind.toLowerCase()
  const issue = issueOf(error.cause)
  if (
    error.kind === "Payload" &&
    issue?._tag === "InvalidValue" &&
    /valid JSON/i.test(String(issue.annotations?.message))
  )
    return toApiFailure(fail("invalid_json"))
  return toApiFailure(
    issue === undefined
      ? fail("validation_failed", { fields: [where], in: where }, `Invalid ${where}.`)
      : invalidShape(issue, { whole: where, in: where, detail: (notes) => `Invalid ${where}: ${notes}` })
  )
}

const schemaErrorResponse = (error: HttpApiError.HttpApiSchemaError) => errorResponse(schemaFailure(error))
