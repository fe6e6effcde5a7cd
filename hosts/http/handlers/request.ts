import { Effect } from "effect"
import type { HeraldError } from "../../../domain/errors.ts"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

export const header = (name: string) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers[name])

export const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })

/**
 * Requires the application services `R` when a group is built, and gives back a function that runs
 * a use case; its HeraldErrors are the endpoint's declared errors (errors.ts apiErrors), which
 * HttpApi renders as the envelope with their status. The services are not provided again per request:
 * HttpApiBuilder already runs every handler (and its middleware) in the context its group was built
 * with, which this requirement makes sure holds `R`. (Providing them again merged a copy of every
 * service into each request's context: about 7% of the CPU of a simple GET.)
 */
export const runner = <R>() =>
  Effect.as(
    Effect.context<R>(),
    <A, R2>(effect: Effect.Effect<A, HeraldError, R2>) => effect as Effect.Effect<A, HeraldError, Exclude<R2, R>>
  )
