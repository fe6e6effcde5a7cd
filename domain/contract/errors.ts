import { Schema } from "effect"
import { catalogue, type ErrorCode, errorCodes } from "../errors.ts"

// The spec's error envelope, {error: {code, message, hint, retryable, details}}: one schema for any
// error, and one per HTTP status whose code is the catalogue's codes of that status.

const statusNames: Readonly<Record<number, string>> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  408: "RequestTimeout",
  409: "Conflict",
  410: "Gone",
  413: "ContentTooLarge",
  415: "UnsupportedMediaType",
  422: "UnprocessableContent",
  429: "TooManyRequests",
  431: "RequestHeaderFieldsTooLarge",
  500: "InternalServerError",
  502: "BadGateway",
  503: "ServiceUnavailable"
}

const envelopeOf = (codes: ReadonlyArray<ErrorCode>) =>
  Schema.Struct({
    error: Schema.Struct({
      // One code is a literal of its own: a union of one member is noise to linters and generators.
      code: (codes.length === 1 ? Schema.Literal(codes[0]!) : Schema.Literals(codes)).annotate({
        description: "What went wrong; clients branch on it"
      }),
      message: Schema.String,
      hint: Schema.String.annotate({ description: "What to do about it" }),
      retryable: Schema.Boolean.annotate({ description: "Whether the same request may succeed later" }),
      details: Schema.optionalKey(
        Schema.Record(Schema.String, Schema.Unknown).annotate({
          description: "Fields, limits, retry times: the occurrence's particulars"
        })
      )
    })
  })

/** Any error Herald answers (REST and MCP alike). */
export const ErrorEnvelope = envelopeOf(errorCodes).annotate({ identifier: "ErrorEnvelope" })
export type ErrorEnvelope = typeof ErrorEnvelope.Type

export const statusOf = (code: ErrorCode): number => catalogue[code].status

/** Every status an error can have, lowest first. */
export const errorStatuses: ReadonlyArray<number> = [...new Set(errorCodes.map(statusOf))].sort((a, b) => a - b)

const byStatus = new Map(
  errorStatuses.map((status) => {
    const codes = errorCodes.filter((code) => statusOf(code) === status)
    const name = statusNames[status] ?? `Status${status}`
    const schema = envelopeOf(codes).annotate({
      identifier: `${name}Error`,
      description: `${status} ${name}: ${codes.join(", ")}`,
      httpApiStatus: status
    })
    return [status, schema] as const
  })
)

/** The envelope of the errors of one status (built once, so a document names it once). */
export const errorEnvelopeOf = (status: number) => {
  const schema = byStatus.get(status)
  if (schema === undefined) throw new Error(`No error code of the catalogue has status ${status}`)
  return schema
}
