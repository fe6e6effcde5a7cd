import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** YouTube's (Google's) errors, mapped here once to what Herald's ports say. */

interface GoogleProblem {
  readonly error?: {
    readonly code?: unknown
    readonly message?: unknown
    readonly status?: unknown
    readonly errors?: ReadonlyArray<{ readonly reason?: unknown; readonly message?: unknown }>
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

/** Google's reason code for a refusal (quotaExceeded, invalidTitle, forbidden...), or null. */
export const reasonOf = (reply: HttpReply): string | null =>
  text(((jsonOf(reply) ?? {}) as GoogleProblem).error?.errors?.[0]?.reason)

/** Google's own words for a refusal: its message, with the reason code after it. */
export const youtubeMessage = (reply: HttpReply): string => {
  const problem = ((jsonOf(reply) ?? {}) as GoogleProblem).error
  const message =
    text(problem?.message) ?? text(problem?.errors?.[0]?.message) ?? `YouTube answered HTTP ${reply.status}.`
  const reason = reasonOf(reply)
  return reason === null || message.includes(reason) ? message : `${message} (${reason})`
}

/** The day's quota, per project or per channel: it comes back at midnight Pacific. */
export const DAILY_REASONS = new Set(["quotaExceeded", "dailyLimitExceeded", "uploadLimitExceeded"])
/** Short throttles: try again in a minute. */
export const SHORT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded"])
export const SHORT_WAIT_MS = 60_000

/** A refusal of an API call (any non-2xx); the client answers the quota reasons before they get here. */
export const publishErrorOf = (reply: HttpReply): PublishError => {
  const message = youtubeMessage(reply)
  if (reply.status === 401)
    return PublishError.unauthorized({ message: `YouTube refused the account's access token: ${message}` })
  if (reply.status === 429) return PublishError.rateLimited({ message, retryAfterMs: SHORT_WAIT_MS })
  if (reply.status >= 400 && reply.status < 500) return PublishError.refused({ code: "upstream_rejected", message })
  return PublishError.unavailable({ message: `YouTube is unavailable: ${message}` })
}

export const quotaError = (retryAfterMs: number, said: string) =>
  PublishError.rateLimited({
    message: `YouTube's quota is used up (${said}); Herald waits ${Math.ceil(retryAfterMs / 1000)} s for it to come back.`,
    retryAfterMs
  })

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `YouTube did not answer: ${e.message}` })

export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `YouTube's answer to ${what} could not be read.` })

/** invalid_grant (revoked, expired, a consent screen in testing after 7 days) means the grant is gone; anything else is for later. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({
        message: `Google refused to renew the YouTube account's access (${e.message}); connect it again.`
      })
    : new NetworkUnavailable({
        message: `Google could not renew the YouTube account's access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

export const connectError = oauthConnectError({
  platform: "youtube",
  grantor: "Google",
  network: "YouTube",
  notGiven: "YouTube did not give the account's channel"
})
