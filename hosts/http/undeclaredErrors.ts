import { Effect, Layer, type Schema } from "effect"
import { type HttpApiEndpoint, HttpApiMiddleware } from "effect/http-api"
import { statusOf } from "../../domain/contract/errors.ts"
import { HeraldError } from "../../domain/errors.ts"
import { apiErrors, errorResponse, toApiFailure } from "./errors.ts"

/**
 * Around every endpoint. It declares what the host may answer for any of them: 404 for a path the
 * router does not take, 413 for a body over the route's limit, 415 for another content type, 500
 * for a defect (server.ts's middlewares answer those). And an error whose status its endpoint does
 * not declare, which would fail HttpApi's encoding (a 500), still gets its envelope, with a warning
 * to declare it (the OpenAPI document lists only declared ones).
 */
export class UndeclaredErrors extends HttpApiMiddleware.Service<UndeclaredErrors>()("herald/http/UndeclaredErrors", {
  error: apiErrors(404, 413, 415, 500)
}) {}

const declared = new WeakMap<HttpApiEndpoint.Top, ReadonlySet<unknown>>()
/** The statuses of the endpoint's errors and of its middlewares' (Authentication's 401 and 403). */
const declaredStatuses = (endpoint: HttpApiEndpoint.Top) => {
  let statuses = declared.get(endpoint)
  if (statuses === undefined) {
    const middlewareErrors = [...endpoint.middlewares].flatMap((m) => [
      ...((m as { readonly error?: ReadonlySet<Schema.Top> }).error ?? [])
    ])
    statuses = new Set([...endpoint.error, ...middlewareErrors].map((schema) => schema.ast.annotations?.httpApiStatus))
    declared.set(endpoint, statuses)
  }
  return statuses
}

export const layer = Layer.succeed(UndeclaredErrors)((httpEffect, { endpoint }) =>
  Effect.catch(httpEffect, (error) =>
    error instanceof HeraldError && !declaredStatuses(endpoint).has(statusOf(error.code))
      ? Effect.as(
          Effect.logWarning("Endpoint answers an error it does not declare", {
            endpoint: endpoint.name,
            code: error.code
          }),
          errorResponse(toApiFailure(error))
        )
      : Effect.fail(error)
  )
)
