import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer, retryAfterMs } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** Reddit's errors (`{message, error}` on HTTP errors; `[[code, message, field]]` inside a 200), mapped here once. */

/** Reddit's window is ten minutes; without X-Ratelimit-Reset or Retry-After, a minute. */
const MINUTE_MS = 60_000

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

export const redditMessage = (reply: HttpReply): string => {
  const body = (jsonOf(reply) ?? {}) as { readonly message?: unknown; readonly reason?: unknown }
  const message = text(body.message) ?? `HTTP ${reply.status}`
  const reason = text(body.reason)
  return reason === null ? `${message} (HTTP ${reply.status})` : `${message}: ${reason} (HTTP ${reply.status})`
}

/** X-Ratelimit-Reset: seconds until the window ends; as epoch ms, or undefined when absent. */
export const resetAt = (headers: Headers, nowMs: number): number | undefined => {
  const seconds = Number(headers.get("x-ratelimit-reset"))
  return headers.has("x-ratelimit-reset") && Number.isFinite(seconds) && seconds >= 0
    ? nowMs + Math.max(1, seconds) * 1000
    : undefined
}

export const waitOf = (reply: HttpReply, nowMs: number): number =>
  (resetAt(reply.headers, nowMs) ?? nowMs + (retryAfterMs(reply.headers, nowMs) ?? MINUTE_MS)) - nowMs

export const publishErrorOf = (reply: HttpReply, nowMs: number): PublishError => {
  const message = redditMessage(reply)
  if (reply.status === 401)
    return PublishError.unauthorized({ message: `Reddit refused the account's access token: ${message}` })
  if (reply.status === 429)
    return PublishError.rateLimited({ message: `Reddit is throttling: ${message}`, retryAfterMs: waitOf(reply, nowMs) })
  if (reply.status >= 400 && reply.status < 500)
    return PublishError.refused({ code: "upstream_rejected", message: `Reddit refused: ${message}` })
  return PublishError.unavailable({ message: `Reddit is unavailable: ${message}` })
}

/** "you are doing that too much. try again in 5 minutes." as milliseconds (a minute when it names none). */
export const ratelimitWaitMs = (message: string): number => {
  const match = /(\d+)\s*(millisecond|second|minute|hour)/i.exec(message)
  if (match === null) return MINUTE_MS
  const unit = match[2]!.toLowerCase()
  const n = Number(match[1])
  return unit === "millisecond" ? n : unit === "second" ? n * 1000 : unit === "minute" ? n * MINUTE_MS : n * 3_600_000
}

/** The first of an api_type=json answer's errors as Herald's: RATELIMIT waits, the rest are Reddit's refusal. */
export const apiError = (errors: ReadonlyArray<ReadonlyArray<string | null>>, what: string): PublishError | null => {
  const first = errors[0]
  if (first === undefined) return null
  const [code, words, field] = [first[0] ?? "ERROR", first[1] ?? "", first[2] ?? null]
  const message = `Reddit refused the ${what}: ${words || code} (${code}${field ? `, ${field}` : ""})`
  if (code === "RATELIMIT") return PublishError.rateLimited({ message, retryAfterMs: ratelimitWaitMs(words) })
  if (code === "USER_REQUIRED" || code === "INVALID_USER") return PublishError.unauthorized({ message })
  return PublishError.refused({ code: "upstream_rejected", message, networkCode: code })
}

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `Reddit did not answer: ${e.message}` })

export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `Reddit's answer to ${what} could not be read.` })

/**
 * A refused refresh (invalid_grant: revoked, or the app's access removed) means the grant is gone;
 * Reddit's 401 at the token endpoint is Herald's own app credentials, not the account: for later.
 */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused" && e.error !== "http_401"
    ? new GrantRevoked({ message: `Reddit refused to renew the account's access (${e.message}); connect it again.` })
    : new NetworkUnavailable({
        message: `Reddit could not renew the account's access now: ${e.message}`,
        ...(e._tag === "OAuthUnavailable" && e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {})
      })

export const connectError = oauthConnectError({
  platform: "reddit",
  grantor: "Reddit",
  network: "Reddit",
  notGiven: "Reddit did not give the account's profile"
})
