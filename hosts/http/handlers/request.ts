import { Effect, Option } from "effect"
import { handled } from "../errors.ts"
import { HttpServerRequest, HttpServerResponse } from "effect/http"

/** The raw JSON body: use cases validate it whole (unknown fields included), so it is not the decoded payload. */
export const rawJson = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.orElseSucceed(request.json, () => ({}) as unknown)
)

export const clientIp = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  Option.getOrElse(request.remoteAddress, () => "unknown")
)

export const header = (name: string) => Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers[name])

export const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })

/**
 * Captures the application services when a group is built, and gives back a function that runs a
 * use case with them (plus the request's own services) and renders its domain errors.
 */
export const runner = <R>() =>
  Effect.map(Effect.context<R>(), (services) =>
    <A, E extends import("../../../domain/errors.ts").HeraldError, R2>(effect: Effect.Effect<A, E, R2>) =>
      effect.pipe(handled, Effect.provideContext(services)) as Effect.Effect<A, never, Exclude<R2, R>>
  )
