import { type IncomingMessage, Server, type ServerResponse } from "node:http"
import { Cause, Context, Effect, Exit, Schema } from "effect"
import { HttpApiError } from "effect/http-api"
import { HttpSettings } from "../../application/config.ts"
import { RequestLimiter, type RequestLimiterShape } from "../../application/requestLimiter.ts"
import type { authenticateKey } from "../../application/usecases/auth.ts"
import type { createPost } from "../../application/usecases/posts/create.ts"
import { CreatePostRequest, requestParseOptions } from "../../domain/contract/postRequest.ts"
import { fail, type HeraldError } from "../../domain/errors.ts"
import { type ApiFailure, defectFailure, toApiFailure } from "./errors.ts"
import { schemaFailure } from "./errorMiddleware.ts"
import { answerCreatePost } from "./handlers/createPost.ts"
import { actorForKey, bearerCredential, SESSION_COOKIE } from "./security.ts"
import { SECURITY_HEADERS } from "./securityHeaders.ts"

/*
 * POST /api/v1/posts with an API key, answered from Node's `request` event. Creating posts is the hot
 * path of a publishing API, and Effect's router and HttpApi layers took about a third of a create's
 * server CPU (0.64 -> 0.44 ms without them; README, "Benchmarks"). This runs the same steps in the same
 * order, through the same code: the key's authentication (actorForKey) and request limits (admitNow),
 * the endpoint's payload schema with its parse options, the endpoint's handler (answerCreatePost),
 * the envelope, the defect answer and the security headers. `test/http/fastPaths.test.ts` checks it
 * answers exactly as the router does. A request it does not take (a session cookie, another content type, a query
 * string, a chunked or large body, `Expect: 100-continue`) goes on to the router unchanged.
 */

type Services =
  | Effect.Services<ReturnType<typeof authenticateKey>>
  | RequestLimiter
  | Effect.Services<ReturnType<typeof createPost>>

const PATH = "/api/v1/posts"
// As the router decodes it: the schema itself with the endpoint's parse options (api.ts).
const decodePayload = Schema.decodeUnknownExit(CreatePostRequest, requestParseOptions)

interface Reply {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

const fromFailure = (failure: ApiFailure): Reply => ({
  status: failure.status,
  body: failure.body,
  headers: failure.headers
})

const isJson = (contentType: string | undefined) => {
  if (contentType === undefined) return false
  const semicolon = contentType.indexOf(";")
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === "application/json"
}

/** The request's API key when the fast path answers it; undefined leaves the request to the router. */
const takenKey = (req: IncomingMessage, maxBodyBytes: number): string | undefined => {
  if (req.method !== "POST" || req.url !== PATH) return undefined
  const headers = req.headers
  if (headers.cookie?.includes(SESSION_COOKIE)) return undefined // the router tries the session when a key fails
  if (headers.expect !== undefined || headers["transfer-encoding"] !== undefined || !isJson(headers["content-type"]))
    return undefined
  const length = Number(headers["content-length"])
  // A body over the limit goes to the router, which refuses it (bodyLimit.ts).
  if (!Number.isInteger(length) || length <= 0 || length > maxBodyBytes) return undefined
  return bearerCredential(headers.authorization)
}

/** Authenticate, decode, create: the create endpoint's steps, in the router's order. */
const answer = (limiter: RequestLimiterShape, key: string, idempotencyKey: string | null, text: string) =>
  Effect.gen(function* () {
    const actor = yield* actorForKey(key)
    const limited = limiter.admitNow(actor) // in memory but for a lease now and then
    if (limited !== undefined) yield* limited
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return fromFailure(toApiFailure(fail("invalid_json")))
    }
    const decoded = decodePayload(json)
    if (Exit.isFailure(decoded)) {
      const error = Cause.findErrorOption(decoded.cause)
      if (error._tag === "None") return yield* Effect.die(Cause.squash(decoded.cause))
      return fromFailure(schemaFailure(new HttpApiError.HttpApiSchemaError({ kind: "Payload", cause: error.value })))
    }
    return (yield* answerCreatePost(actor, decoded.value, idempotencyKey)) satisfies Reply
  }).pipe(Effect.catch((error: HeraldError) => Effect.succeed(fromFailure(toApiFailure(error)))))

const send = (res: ServerResponse, reply: Reply) => {
  if (res.destroyed) return
  const body = JSON.stringify(reply.body)
  res.writeHead(reply.status, {
    ...SECURITY_HEADERS,
    ...reply.headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body)
  })
  res.end(body)
}

/**
 * A request listener for the fast path: true when it took the request (and will answer it), false
 * when the router should. Runs the use cases with the services of the effect that builds it.
 */
export const make = Effect.gen(function* () {
  const context = yield* Effect.context<Services>()
  const limiter = Context.get(context, RequestLimiter)
  const maxBodyBytes = (yield* HttpSettings).bodyLimits.posts
  const run = Effect.runForkWith(context)
  const accessLog = (req: IncomingMessage, status: number) =>
    Effect.log("Sent HTTP response").pipe(
      Effect.annotateLogs({ "http.method": "POST", "http.url": req.url ?? PATH, "http.status": status })
    )
  return (options: { readonly accessLog: boolean }) =>
    (req: IncomingMessage, res: ServerResponse): boolean => {
      const key = takenKey(req, maxBodyBytes)
      if (key === undefined) return false
      const chunks: Array<Buffer> = []
      req.on("error", () => undefined) // the client went away mid-body: there is no one to answer
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const text = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
        const idempotencyKey = req.headers["idempotency-key"]
        const answered = answer(limiter, key, typeof idempotencyKey === "string" ? idempotencyKey : null, text).pipe(
          // A defect: the router's answer to one.
          Effect.catchCause((cause) => Effect.map(defectFailure(cause, "POST", PATH), fromFailure)),
          Effect.tap((reply) => Effect.sync(() => send(res, reply)))
        )
        // The access log line as the router's logger middleware writes it.
        run(
          options.accessLog
            ? Effect.withLogSpan(
                Effect.tap(answered, (reply) => accessLog(req, reply.status)),
                "http.span"
              )
            : answered
        )
      })
      return true
    }
})

/**
 * A Node HTTP server whose `request` events pass through the fast path first. Effect's Node server
 * attaches its handler to `request`; overriding `emit` keeps that unchanged.
 */
export const server = (fast: (req: IncomingMessage, res: ServerResponse) => boolean): Server =>
  new (class extends Server {
    override emit(event: string, ...args: Array<unknown>): boolean {
      if (event === "request" && fast(args[0] as IncomingMessage, args[1] as ServerResponse)) return true
      return super.emit(event, ...args)
    }
  })()
