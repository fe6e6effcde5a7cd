import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { BodyLimits } from "../../application/config.ts"
import { REST_UPLOAD_LIMIT } from "../../application/usecases/media/upload.ts"
import { fail, type HeraldError } from "../../domain/errors.ts"
import { causeValues, errorResponse, isBodyTooLarge, toApiFailure } from "./errors.ts"

/** POST /media's JSON form: base64 is 4/3 of a 100 MB file, plus room for the other fields and line breaks. */
export const MEDIA_JSON_BODY_LIMIT = Math.ceil((REST_UPLOAD_LIMIT * 4) / 3) + 1024 * 1024

/** How much of a request body its route reads, and the error past it. */
export interface RouteLimit {
  readonly bytes: number
  readonly error: HeraldError
}

// The error is made only when a body is refused: a HeraldError captures a stack trace, ~1% of a create's CPU.
const limitOf = (bytes: number, error: () => HeraldError): RouteLimit => ({
  bytes,
  get error() {
    return error()
  }
})

const formPaths = new Set([
  "/claim",
  "/signin",
  "/signin/complete",
  "/signout",
  "/oauth/authorize",
  "/oauth/token",
  "/oauth/revoke"
])

/** The body limit of a request, by its path (the media upload's readers count its bytes against their own limits first). */
export const routeLimit = (method: string, url: string, limits: BodyLimits): RouteLimit => {
  const query = url.indexOf("?")
  const path = (query === -1 ? url : url.slice(0, query)).replace(/(.)\/+$/, "$1")
  if (method === "POST" && path === "/api/v1/media")
    return limitOf(MEDIA_JSON_BODY_LIMIT, () => fail("file_too_large", { maxBytes: REST_UPLOAD_LIMIT }))
  const bytes =
    method === "POST" && path === "/api/v1/posts"
      ? limits.posts
      : method === "POST" && path === "/api/v1/posts/batch"
        ? limits.batch
        : path === "/mcp"
          ? limits.mcp
          : formPaths.has(path)
            ? limits.forms
            : limits.json
  return limitOf(bytes, () => fail("payload_too_large", { limitBytes: bytes }))
}

/** The 413 answer; the connection closes after it, so the rest of the body is never read. */
export const refusal = (limit: RouteLimit) =>
  HttpServerResponse.setHeader(errorResponse(toApiFailure(limit.error)), "connection", "close")

/**
 * Every request body is bounded by its route's limit while it is read: a larger Content-Length is
 * refused before a byte of the body is read, and the platform's body readers (JSON, text, forms,
 * HttpApi payloads; `requestBody` for media) stop at the limit (MaxBodySize), whatever the transfer
 * encoding. The refusal is the envelope's 413.
 */
export const bodyLimit =
  (limits: BodyLimits) =>
  <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const limit = routeLimit(request.method, request.url, limits)
      const declared = request.headers["content-length"]
      if (declared !== undefined && Number(declared) > limit.bytes) return Effect.succeed(refusal(limit))
      return app.pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit.bytes)),
        Effect.catchCause((cause) =>
          causeValues(cause).some(isBodyTooLarge) ? Effect.succeed(refusal(limit)) : Effect.failCause(cause)
        )
      )
    })
