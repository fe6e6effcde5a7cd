import { type Context, Effect, Option, Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HeraldConfig, HttpSettings } from "../../application/config.ts"
import { RequestLimiter, type RequestLimiterShape } from "../../application/requestLimiter.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { authenticateAccessToken } from "../../application/usecases/oauth/tokens.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { accessTokenPrefix, resourceMetadataUrl, SCOPE } from "../../domain/oauth.ts"
import { clientBucket } from "../http/clientAddress.ts"
import { errorResponse, isBodyTooLarge, toApiFailure } from "../http/errors.ts"
import { bearerCredential } from "../http/security.ts"
import type { McpSession } from "./server.ts"
import type { McpServices } from "./tool.ts"

export const MCP_PATH = "/mcp"

// The MCP SDK (and its zod) and the tools (~600 modules) load on the first /mcp request, not at the host's start.
let sdk:
  | Promise<
      readonly [
        typeof import("./server.ts"),
        typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")
      ]
    >
  | undefined
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("./server.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js")
  ] as const))

const jsonRpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers })

/**
 * A 401 names where the protected resource's metadata is (RFC 9728 section 5.1), so a client knowing only
 * this URL finds Herald's authorization server; a token that was sent and refused is invalid_token (RFC 6750).
 */
const unauthorizedWith =
  (publicUrl: string) =>
  (detail?: string, tokenRefused = false) =>
    HttpServerResponse.setHeader(
      errorResponse(toApiFailure(fail("unauthorized", undefined, detail))),
      "www-authenticate",
      `Bearer realm="herald", resource_metadata="${resourceMetadataUrl(publicUrl)}", scope="${SCOPE}"${tokenRefused ? ', error="invalid_token"' : ""}`
    )
type Unauthorized = ReturnType<typeof unauthorizedWith>

/** Without a key a client may start a session, list tools (all show, as connectors expect) and call sign_up; other calls get 401. */
const allowedWithoutKey = (message: unknown): boolean => {
  if (typeof message !== "object" || message === null) return true // malformed: the SDK answers it
  const m = message as { readonly method?: unknown; readonly params?: { readonly name?: unknown } }
  if (typeof m.method !== "string") return true // a response to a server request
  if (
    m.method.startsWith("notifications/") ||
    m.method === "initialize" ||
    m.method === "ping" ||
    m.method === "tools/list"
  )
    return true
  return m.method === "tools/call" && m.params?.name === "sign_up"
}

/** The caller: none (no header), or the actor of an API key or OAuth access token, or a 401 for a wrong or malformed one. */
const authenticate = (
  request: HttpServerRequest.HttpServerRequest,
  services: Context.Context<McpServices>,
  unauthorized: Unauthorized,
  oauthPrefix: string
) => {
  const header = request.headers.authorization
  if (header === undefined) return Effect.succeed(Result.succeed<Actor | null>(null))
  const key = bearerCredential(header)
  if (key === undefined) return Effect.succeed(Result.fail(unauthorized(undefined, true)))
  return (key.startsWith(oauthPrefix) ? authenticateAccessToken(key) : authenticateKey(key)).pipe(
    Effect.provideContext(services),
    Effect.map((actor) => Result.succeed<Actor | null>(actor)),
    Effect.catch(() => Effect.succeed(Result.fail(unauthorized(undefined, true))))
  )
}

/** Counts the request against the key's and workspace's request limits: a 429 answer when over them. */
const admit = (limiter: RequestLimiterShape, actor: Actor | null, cost: number) =>
  actor === null || cost <= 0
    ? Effect.succeed(undefined)
    : limiter.admit(actor, cost).pipe(
        Effect.as(undefined),
        Effect.catch((limited) => Effect.succeed(errorResponse(toApiFailure(limited))))
      )

const handle = (
  services: Context.Context<McpServices>,
  limiter: RequestLimiterShape,
  client: (request: HttpServerRequest.HttpServerRequest) => string,
  unauthorized: Unauthorized,
  oauthPrefix: string
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    // Stateless: no session to resume and no server-initiated stream, so GET and DELETE have nothing to do.
    if (request.method !== "POST")
      return jsonRpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless and takes POST only.", {
        allow: "POST"
      })
    const auth = yield* authenticate(request, services, unauthorized, oauthPrefix)
    if (Result.isFailure(auth)) return auth.failure
    const actor = auth.success
    // Counted before the body is read, so a caller over its limit costs no more than that.
    const refused = yield* admit(limiter, actor, 1)
    if (refused !== undefined) return refused

    // Read within the route's body limit (bodyLimit.ts answers a larger body with 413).
    const text = yield* Effect.result(request.text)
    if (Result.isFailure(text))
      return isBodyTooLarge(text.failure)
        ? yield* Effect.die(text.failure)
        : jsonRpcError(400, -32700, "Parse error: the request body could not be read.")
    let body: unknown
    try {
      body = JSON.parse(text.success)
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the request body is not JSON.")
    }
    if (actor === null && !(Array.isArray(body) ? body : [body]).every(allowedWithoutKey))
      return unauthorized(
        "This MCP call needs authorization: an OAuth access token (see WWW-Authenticate) or an API key, as Authorization: Bearer <token>. Without one only sign_up is available."
      )
    // A JSON-RPC batch counts each of its messages (tool calls included) as a request.
    const refusedBatch = yield* admit(limiter, actor, Array.isArray(body) ? body.length - 1 : 0)
    if (refusedBatch !== undefined) return refusedBatch

    const session: McpSession = {
      run: Effect.runPromiseExitWith(services),
      context: () => ({
        actor,
        transport: "http",
        ip: client(request),
        acceptLanguage: request.headers["accept-language"]
      })
    }
    const headers = new Headers(Object.entries(request.headers).filter(([name]) => name !== "content-length"))
    const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(`http://localhost${MCP_PATH}`))
    const response = yield* Effect.promise(async () => {
      const [{ makeServer }, { WebStandardStreamableHTTPServerTransport }] = await loadSdk()
      // One server and transport per request: stateless mode keeps nothing between requests.
      const server = makeServer(session)
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true
      })
      await server.connect(transport)
      try {
        return await transport.handleRequest(new Request(url, { method: "POST", headers }), { parsedBody: body })
      } finally {
        await server.close()
      }
    })
    return HttpServerResponse.fromWeb(response)
  })

/** `/mcp` on the HTTP host: MCP's Streamable HTTP transport, stateless, with the REST API's Bearer keys. */
export const layer = HttpRouter.addAll(
  Effect.gen(function* () {
    const services = yield* Effect.context<McpServices>()
    const limiter = yield* RequestLimiter
    const config = yield* HeraldConfig
    return [
      HttpRouter.route(
        "*",
        MCP_PATH,
        handle(
          services,
          limiter,
          clientBucket(yield* HttpSettings),
          unauthorizedWith(config.publicUrl),
          accessTokenPrefix(config.keyPrefix)
        )
      )
    ]
  })
)
