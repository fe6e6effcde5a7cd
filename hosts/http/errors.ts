import { type Cause, Effect, Schema } from "effect"
import { HttpServerError, HttpServerResponse } from "effect/http"
import { HttpApiSchema } from "effect/http-api"
import { catalogue, type ErrorCode, fail, HeraldError, toEnvelope, type ErrorDetails } from "../../domain/errors.ts"

/** An error already rendered to the spec's envelope, with its status and headers. */
export class ApiFailure {
  readonly _tag = "ApiFailure"
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
  constructor(status: number, body: unknown, headers: Readonly<Record<string, string>>) {
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

export const errorResponse = (failure: ApiFailure) => HttpServerResponse.jsonUnsafe(failure.body, { status: failure.status, headers: failure.headers })

export const failWith = (code: ErrorCode, details?: ErrorDetails, detail?: string) => errorResponse(toApiFailure(fail(code, details, detail)))

/**
 * Handlers end with this: a domain error leaves the handler as an ApiFailure defect, which the
 * error middleware renders as the envelope (HttpApi would otherwise encode it with a fixed status).
 */
export const handled = <A, R>(effect: Effect.Effect<A, HeraldError, R>): Effect.Effect<A, never, R> => Effect.catch(effect, (error) => Effect.die(toApiFailure(error)))

/** A defect's answer: logged with a request id, and a 500 that shows only the id, never internals. */
export const defectFailure = (cause: Cause.Cause<unknown>, method: string, url: string) => {
  const requestId = `req_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  return Effect.as(Effect.logError("Unhandled failure", { requestId, method, url }, cause), toApiFailure(fail("internal_error", { requestId })))
}

export const isApiFailure = (u: unknown): u is ApiFailure => u instanceof ApiFailure

/** What a cause failed or died with, in order (interruptions have nothing). */
export const causeValues = <E>(cause: Cause.Cause<E>): Array<unknown> =>
  cause.reasons.flatMap((reason) => (reason._tag === "Die" ? [reason.defect] : reason._tag === "Fail" ? [reason.error] : []))

export const findApiFailure = <E>(cause: Cause.Cause<E>): ApiFailure | undefined => {
  for (const value of causeValues(cause)) {
    if (isApiFailure(value)) return value
    if (value instanceof HeraldError) return toApiFailure(value)
  }
  return undefined
}

/** The platform's body reader stopped at the route's limit (bodyLimit.ts sets it). */
export const isBodyTooLarge = (u: unknown): boolean => HttpServerError.isHttpServerError(u) && u.reason._tag === "RequestParseError" && u.reason.reason === "BodyTooLarge"

// Documentation of the error bodies, per status, for the OpenAPI document. The code is a literal
// union per status, so a body matches exactly one status's schema.
const envelope = (codes: ReadonlyArray<string>) =>
  Schema.Struct({
    error: Schema.Struct({
      code: Schema.Literals(codes),
      message: Schema.String,
      hint: Schema.String,
      retryable: Schema.Boolean,
      details: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
    })
  })

const codesFor = (status: number) =>
  Object.entries(catalogue)
    .filter(([, e]) => e.status === status)
    .map(([code]) => code)

export const errorDoc = (status: number) =>
  envelope(codesFor(status))
    .annotate({ identifier: `Error${status}`, description: `Error envelope. Codes: ${codesFor(status).join(", ")}` })
    .pipe(HttpApiSchema.status(status))
