import { Context, Effect, Layer, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { RequestLimiter } from "../../application/requestLimiter.ts"
import { authenticateKey, authenticateSession } from "../../application/usecases/auth.ts"
import { apiErrors, errorResponse, toApiFailure } from "./errors.ts"

export const SESSION_COOKIE = "herald_session"
export const CSRF_HEADER = "x-csrf-token"

// RFC 6750's b64token; "Bearer" in any case, then one or more spaces (a tab is not one of them).
const bearerForm = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i

/** The key in `Authorization: Bearer <key>`: the one reading for REST, MCP and the fast path. */
export const bearerCredential = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : bearerForm.exec(authorization)?.[1]

/** The actor of an API key; any failure is 401 unauthorized (the router's middleware and the fast path). */
export const actorForKey = (key: string) => Effect.catch(authenticateKey(key), () => Effect.fail(fail("unauthorized")))

/** The caller of the current request. */
export class CurrentActor extends Context.Service<CurrentActor, Actor>()("herald/http/CurrentActor") {}

/** Bearer API key, or the web app's session cookie (with a CSRF header on state-changing requests). */
export class Authentication extends HttpApiMiddleware.Service<
  Authentication,
  { provides: CurrentActor; requires: never }
>()("herald/http/Authentication", {
  security: { bearer: HttpApiSecurity.bearer, session: HttpApiSecurity.apiKey({ key: SESSION_COOKIE, in: "cookie" }) },
  error: apiErrors(401, 403, 429)
}) {}

type AuthServices =
  | Effect.Services<ReturnType<typeof authenticateKey>>
  | Effect.Services<ReturnType<typeof authenticateSession>>

// A failure (not a defect) so the next scheme is tried; the last one's failure is the answer.
const unauthorized = () => Effect.fail(fail("unauthorized"))

export const layer = Layer.effect(Authentication)(
  Effect.gen(function* () {
    // Required here so the layer is only built where the use cases' services exist; at request time
    // the middleware runs in its group's context (HttpApiBuilder provides it), which holds them.
    yield* Effect.context<AuthServices>()
    const limiter = yield* RequestLimiter
    const inGroupContext = <A, E>(effect: Effect.Effect<A, E, AuthServices>) => effect as Effect.Effect<A, E>
    return {
      // The header is read with bearerCredential, as MCP and the fast path read it, not with the platform's own reading.
      bearer: (httpEffect) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const key = bearerCredential(request.headers.authorization)
          if (key === undefined) return unauthorized()
          return inGroupContext(actorForKey(key)).pipe(
            Effect.catch(() => unauthorized()),
            Effect.flatMap((actor) => {
              const handled = Effect.provideService(httpEffect, CurrentActor, actor)
              const pending = limiter.admitNow(actor)
              return pending === undefined
                ? handled
                : Effect.matchEffect(pending, {
                    // Answered, not failed: a failure here would let the session scheme's 401 be the answer.
                    onFailure: (limited) => Effect.succeed(errorResponse(toApiFailure(limited))),
                    onSuccess: () => handled
                  })
            })
          )
        }),
      session: (httpEffect, { credential, endpoint }) => {
        const token = Redacted.value(credential)
        if (token === "") return unauthorized()
        return inGroupContext(authenticateSession(token)).pipe(
          Effect.catch(() => unauthorized()),
          Effect.flatMap(({ actor, csrf }) =>
            Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
              Effect.andThen(
                endpoint.method !== "GET" && request.headers[CSRF_HEADER] !== csrf
                  ? Effect.fail(fail("csrf_failed"))
                  : limiter.admit(actor), // a person's requests count against the workspace
                Effect.provideService(httpEffect, CurrentActor, actor)
              )
            )
          )
        )
      }
    }
  })
)
