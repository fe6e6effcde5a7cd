import { Effect, type Option, Schema } from "effect"
import { HttpBody, HttpClientRequest } from "effect/http"
import { causeOf, Outbound, policies, TimedOut } from "../../outbound/client.ts"

/** A network's answer, read whole (API answers are small; media goes up, not down). */
export interface HttpReply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

export interface HttpRequest {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | FormData | Uint8Array | URLSearchParams
  /** Every network call has one: a network that hangs must not hold a worker. */
  readonly timeoutMs: number
  /**
   * The host was named by someone else (an instance a person typed, a server an identity document
   * names), not by Herald's configuration: the address guard judges it.
   */
  readonly named?: boolean
  /** Sending it twice is harmless whatever its method (X's append names its segment): retried after a stale socket. */
  readonly idempotent?: boolean
}

/**
 * No answer came (refused, reset, timed out). Whether the request reached the network is not known:
 * for a create call that means the outcome is unknown, not that nothing was posted.
 */
export class NoAnswer extends Schema.TaggedError<NoAnswer>()("NoAnswer", {
  message: Schema.String,
  timedOut: Schema.Boolean
}) {}

/** The body with the type fetch would give it; a content-type the caller names wins. */
const bodyOf = (body: HttpRequest["body"]) =>
  body === undefined
    ? HttpBody.empty
    : typeof body === "string"
      ? HttpBody.text(body, "text/plain;charset=UTF-8")
      : body instanceof FormData
        ? HttpBody.formData(body)
        : body instanceof URLSearchParams
          ? HttpBody.text(body.toString(), "application/x-www-form-urlencoded;charset=UTF-8")
          : HttpBody.raw(body)

/** Sends one request through the outbound client and reads the answer, within `timeoutMs`; interrupting the effect aborts it. */
export const send = (request: HttpRequest): Effect.Effect<HttpReply, NoAnswer> =>
  Effect.gen(function* () {
    const outbound = yield* Outbound
    const policy = {
      ...(request.named === true ? policies.namedApi : policies.network),
      timeoutMs: request.timeoutMs,
      ...(request.idempotent === true ? { idempotent: true } : {})
    }
    const response = yield* outbound
      .client(policy)
      .execute(
        HttpClientRequest.make(request.method)(request.url).pipe(
          HttpClientRequest.setBody(bodyOf(request.body)),
          HttpClientRequest.setHeaders(request.headers ?? {})
        )
      )
    return { status: response.status, headers: new Headers(response.headers), text: yield* response.text }
  }).pipe(
    Effect.catch((error) => {
      const cause = causeOf(error)
      const host = URL.canParse(request.url) ? new URL(request.url).host : request.url
      return Effect.fail(
        new NoAnswer({
          message:
            cause instanceof TimedOut
              ? `${host} did not answer within ${request.timeoutMs} ms.`
              : `${host} could not be reached (${describe(cause)}).`,
          timedOut: cause instanceof TimedOut
        })
      )
    })
  )

const describe = (cause: unknown): string => {
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause
  return inner instanceof Error ? inner.message : String(inner)
}

/** The answer's body as JSON, or undefined when it is not JSON. */
export const jsonOf = (reply: HttpReply): unknown => {
  try {
    return JSON.parse(reply.text)
  } catch {
    return undefined
  }
}

export const isSuccess = (reply: HttpReply) => reply.status >= 200 && reply.status < 300

/** `Retry-After` (seconds or an HTTP date) as milliseconds from `nowMs`; undefined when absent or unreadable. */
export const retryAfterMs = (headers: Headers, nowMs: number): number | undefined => {
  const value = headers.get("retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** A base URL from configuration with its trailing slashes removed, so paths can be appended. */
export const baseUrl = (url: string) => url.replace(/\/+$/, "")

/** A reader of one kind of answer: its JSON body decoded by `schema`, or none when it does not match. */
export const decodeReply = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const run = Schema.decodeUnknownOption(schema)
  return (reply: HttpReply): Option.Option<S["Type"]> => run(jsonOf(reply))
}
