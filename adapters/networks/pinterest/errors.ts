import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer, retryAfterMs } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** Pinterest's errors (`{code, message}`), mapped here once to what Herald's ports say. */

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

export const pinterestMessage = (reply: HttpReply): string => {
  const body = (jsonOf(reply) ?? {}) as { readonly message?: unknown; readonly code?: unknown }
  const message = text(body.message) ?? `Pinterest answered HTTP ${reply.status}.`
  return typeof body.code === "number" ? `${message} (code ${body.code})` : message
}

/** Pinterest's limits are per minute per user and category: without a Retry-After, a minute. */
const MINUTE_MS = 60_000

export const publishErrorOf = (reply: HttpReply, nowMs: number): PublishError => {
  const message = pinterestMessage(reply)
  if (reply.status === 401)
    return PublishError.unauthorized({ message: `Pinterest refused the account's access token: ${message}` })
  if (reply.status === 429)
    return PublishError.rateLimited({ message, retryAfterMs: retryAfterMs(reply.headers, nowMs) ?? MINUTE_MS })
  if (reply.status >= 400 && reply.status < 500) return PublishError.refused({ code: "upstream_rejected", message })
  return PublishError.unavailable({ message: `Pinterest is unavailable: ${message}` })
}

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `Pinterest did not answer: ${e.message}` })

export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `Pinterest's answer to ${what} could not be read.` })

/** A refused refresh means the grant is gone (reconnect); anything else is for later. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({ message: `Pinterest refused to renew the account's access (${e.message}); connect it again.` })
    : new NetworkUnavailable({
        message: `Pinterest could not renew the account's access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

export const connectError = oauthConnectError({
  platform: "pinterest",
  grantor: "Pinterest",
  network: "Pinterest",
  notGiven: "Pinterest did not give the account's profile"
})
