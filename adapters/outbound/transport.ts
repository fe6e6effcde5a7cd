import * as http from "node:http"
import * as https from "node:https"
import { Effect, Schema, Stream } from "effect"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse } from "effect/http"
import { AddressRefused, guardedLookup, judgeLiteral } from "./guard.ts"
import type { Policy } from "./policies.ts"

// One HTTP exchange on node:http under a policy: the guard, the timer, the body cap, one resend on a stale socket.

/** No whole answer within the policy's time. */
export class TimedOut extends Schema.TaggedError<TimedOut>()("TimedOut", {
  timeoutMs: Schema.Number,
  message: Schema.String
}) {}

/** The answer's body is over the policy's cap (and the policy does not cut it). */
export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", {
  maxBytes: Schema.Number,
  message: Schema.String
}) {}

// Safe methods only: a network may refuse a PUT sent twice (TikTok refuses a chunk it already has).
const idempotentMethods = new Set(["GET", "HEAD", "OPTIONS"])
const nullBodyStatuses = new Set([101, 204, 205, 304])

/** A request body as bytes (kept, so a request can go again on a fresh socket). */
const bytesOf = (
  request: HttpClientRequest.HttpClientRequest
): Effect.Effect<{ readonly bytes: Uint8Array | undefined; readonly contentType?: string }, unknown> => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return Effect.succeed({ bytes: undefined })
    case "Uint8Array":
      return Effect.succeed({ bytes: body.body })
    case "Raw":
      return body.body instanceof Uint8Array
        ? Effect.succeed({ bytes: body.body })
        : Effect.promise(async () => ({
            bytes: new Uint8Array(
              await new Response(body.body as ConstructorParameters<typeof Response>[0]).arrayBuffer()
            )
          }))
    case "FormData":
      return Effect.promise(async () => {
        const encoded = new Response(body.formData)
        return {
          bytes: new Uint8Array(await encoded.arrayBuffer()),
          contentType: encoded.headers.get("content-type") ?? undefined
        }
      })
    case "Stream":
      return Stream.runCollect(body.stream).pipe(Effect.map((chunks) => ({ bytes: Buffer.concat([...chunks]) })))
  }
}

const headersOf = (incoming: http.IncomingHttpHeaders) => {
  const headers = new globalThis.Headers()
  for (const [name, value] of Object.entries(incoming))
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v)
  return headers
}

const isReset = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === "ECONNRESET" || code === "EPIPE"
}

/** A keep-alive pool per protocol, chosen by guard. */
export type PoolOf = (
  guarded: boolean,
  allowLoopback: boolean
) => { readonly "http:": http.Agent; readonly "https:": https.Agent }

/** An HttpClient making each call with node:http through `poolOf`'s sockets, as `policy` allows. */
export const makeTransport = (poolOf: PoolOf) => (policy: Policy, allowLoopback: boolean) =>
  HttpClient.make((request, url) =>
    Effect.flatMap(Effect.orDie(bytesOf(request)), (body) =>
      Effect.callback<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>((resume) => {
        let settled = false
        let current: http.ClientRequest | undefined
        let timedOut = false
        // A plain timer (cheaper than abort signals); interruption destroys the request below.
        const timer = setTimeout(() => {
          timedOut = true
          current?.destroy()
          fail(null)
        }, policy.timeoutMs)
        const fail = (cause: unknown) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          const reason = timedOut
            ? new TimedOut({
                timeoutMs: policy.timeoutMs,
                message: `${url.host} did not answer within ${policy.timeoutMs} ms.`
              })
            : cause
          resume(
            Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, cause: reason })
              })
            )
          )
        }
        const succeed = (response: http.IncomingMessage, bytes: Buffer) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          const status = response.statusCode ?? 0
          const web = new Response(nullBodyStatuses.has(status) ? null : bytes, {
            status,
            headers: headersOf(response.headers)
          })
          resume(Effect.succeed(HttpClientResponse.fromWeb(request, web)))
        }
        const protocol = url.protocol
        if (protocol !== "http:" && protocol !== "https:")
          return fail(new AddressRefused({ kind: "scheme", host: url.host, message: "Only http(s) URLs are called." }))
        const refused = policy.guarded ? judgeLiteral(url.hostname, allowLoopback) : null
        if (refused !== null) return fail(refused)
        const headers: Record<string, string> = { ...request.headers }
        if (body.contentType !== undefined) headers["content-type"] = body.contentType
        if (body.bytes !== undefined) headers["content-length"] = String(body.bytes.byteLength)

        const read = (response: http.IncomingMessage) => {
          const max = policy.maxBodyBytes
          const declared = Number(response.headers["content-length"])
          if (policy.overflow === "fail" && Number.isFinite(declared) && declared > max) {
            response.destroy()
            return fail(new BodyTooLarge({ maxBytes: max, message: `${url.host} answered more than ${max} bytes.` }))
          }
          const chunks: Array<Buffer> = []
          let size = 0
          response.on("data", (chunk: Buffer) => {
            size += chunk.length
            chunks.push(chunk)
            if (size <= max) return
            // Past the cap the rest is not read: the connection is dropped instead.
            response.destroy()
            if (policy.overflow === "truncate") succeed(response, Buffer.concat(chunks).subarray(0, max))
            else fail(new BodyTooLarge({ maxBytes: max, message: `${url.host} answered more than ${max} bytes.` }))
          })
          response.on("end", () => succeed(response, Buffer.concat(chunks)))
          response.on("error", fail)
        }

        const send = (fresh: boolean) => {
          const client = protocol === "https:" ? https : http
          const req = client.request(url, {
            method: request.method,
            headers,
            // A fresh socket: no pool, connected through the same guard.
            agent: fresh ? false : poolOf(policy.guarded, allowLoopback)[protocol],
            ...(fresh && policy.guarded ? { lookup: guardedLookup(allowLoopback) } : {})
          })
          current = req
          let answered = false
          req.on("response", (response) => {
            answered = true
            read(response)
          })
          req.on("error", (error) => {
            // A kept-alive socket the server had closed (Node's reusedSocket pattern): sent once more on a
            // fresh socket when sending twice is harmless, or when it was cut before its last byte left
            // (the server cannot have acted on it). A whole request the server dropped is not resent.
            const again =
              !fresh &&
              !answered &&
              req.reusedSocket &&
              isReset(error) &&
              !timedOut &&
              (idempotentMethods.has(request.method) || policy.idempotent === true || !req.writableFinished)
            if (again) send(true)
            else fail(error)
          })
          req.end(
            body.bytes === undefined
              ? undefined
              : Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength)
          )
        }
        send(false)
        return Effect.sync(() => {
          clearTimeout(timer)
          current?.destroy()
        })
      })
    )
  )
