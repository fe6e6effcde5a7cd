import { type Cause, Effect, Schema } from "effect"
import { HttpServerError, HttpServerResponse } from "effect/http"
import { HttpApiSchema } from "effect/http-api"
import { errorEnvelopeOf, type ErrorEnvelope, statusOf } from "../../domain/contract/errors.ts"
import { type ErrorCode, fail, HeraldError, toEnvelope, type ErrorDetails } from "../../domain/errors.ts"

/** An error already rendered to the spec's envelope, with its status and headers. */
export class ApiFailure {
  readonly _tag = "ApiFailure"
  readonly status: number
  readonly body: ErrorEnvelope
  readonly headers: Readonly<Record<string, string>>
  constructor(status: number, body: ErrorEnvelope, headers: Readonly<Record<string, string>>) {
    this.status = status
    this.body = body
    this.headers = headers
  }
}

/** Status, envelope and the headers the spec ties to some statuses (401, 429). */
export const toApiFailure = (error: HeraldError): ApiFailure => {
  const { status, body } = toEnvelope(error)
  const headers: Record<string, string> = {}
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="herald"'
  const retryAfter = error.details?.retryAfterSeconds
  if (typeof retryAfter === "number" && (status === 429 || status === 503)) headers["retry-after"] = String(retryAfter)
  return new ApiFailure(status, body, headers)
}

export const errorResponse = (failure: ApiFailure) =>
  HttpServerResponse.jsonUnsafe(failure.body, { status: failure.status, headers: failure.headers })

export const failWith = (code: ErrorCode, details?: ErrorDetails, detail?: string) =>
  errorResponse(toApiFailure(fail(code, details, detail)))

/** A defect's answer: logged with a request id, and a 500 that shows only the id, never internals. */
export const defectFailure = (cause: Cause.Cause<unknown>, method: string, url: string) => {
  const requestId = `req_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  return Effect.as(
    Effect.logError("Unhandled failure", { requestId, method, url }, cause),
    toApiFailure(fail("internal_error", { requestId }))
  )
}

export const isApiFailure = (u: unknown): u is ApiFailure => u instanceof ApiFailure

/** What a cause failed or died with, in order (interruptions have nothing). */
export const causeValues = <E>(cause: Cause.Cause<E>): Array<unknown> =>
  cause.reasons.flatMap((reason) =>
    reason._tag === "Die" ? [reason.defect] : reason._tag === "Fail" ? [reason.error] : []
  )

export const findApiFailure = <E>(cause: Cause.Cause<E>): ApiFailure | undefined => {
  for (const value of causeValues(cause)) {
    if (isApiFailure(value)) return value
    if (value instanceof HeraldError) return toApiFailure(value)
  }
  return undefined
}

/** The platform's body reader stopped at the route's limit (bodyLimit.ts sets it). */
export const isBodyTooLarge = (u: unknown): boolean =>
  HttpServerError.isHttpServerError(u) && u.reason._tag === "RequestParseError" && u.reason.reason === "BodyTooLarge"

// The headers the spec ties to a status (toApiFailure sets them).
const challenge = { "www-authenticate": Schema.String }
const retryAfter = { "retry-after": Schema.optionalKey(Schema.String) }
const none = {}

const makeApiError = <H extends Schema.Struct.Fields>(status: number, headers: H) =>
  Schema.declare((u: unknown): u is HeraldError => u instanceof HeraldError && statusOf(u.code) === status).pipe(
    HttpApiSchema.encodeToWithHeaders(
      { body: errorEnvelopeOf(status), headers },
      {
        decode: ({ body }) =>
          new HeraldError({
            code: body.error.code,
            detail: body.error.message,
            ...(body.error.details ? { details: body.error.details } : {})
          }),
        encode: (error) => {
          const failure = toApiFailure(error)
          // toApiFailure sets exactly the headers of this status (challenge, retryAfter or none).
          return { body: failure.body, headers: failure.headers as Schema.Struct.Type<H> }
        }
      }
    )
  )

const build = (status: number) =>
  status === 401
    ? makeApiError(status, challenge)
    : status === 429 || status === 503
      ? makeApiError(status, retryAfter)
      : makeApiError(status, none)

const byStatus = new Map<number, ReturnType<typeof build>>()

/**
 * The domain errors of one status as an endpoint declares them: the catalogue's envelope (one
 * OpenAPI component per status) with the headers the spec ties to it. Handlers fail with HeraldError.
 */
export const apiError = (status: number) => {
  let schema = byStatus.get(status)
  if (schema === undefined) byStatus.set(status, (schema = build(status)))
  return schema
}

export const apiErrors = (...statuses: Array<number>) => statuses.map(apiError)
