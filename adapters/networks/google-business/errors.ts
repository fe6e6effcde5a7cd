import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer, retryAfterMs } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** Google's API errors (`{error: {code, message, status, details}}`), mapped here once to what Herald's ports say. */

interface GoogleProblem {
  readonly error?: {
    readonly message?: unknown
    readonly status?: unknown
    readonly details?: ReadonlyArray<{ readonly reason?: unknown }>
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)
const problemOf = (reply: HttpReply) => ((jsonOf(reply) ?? {}) as GoogleProblem).error

/** Google's canonical status (INVALID_ARGUMENT, PERMISSION_DENIED, RESOURCE_EXHAUSTED...), or null. */
export const statusOf = (reply: HttpReply): string | null => text(problemOf(reply)?.status)

/** Google's own words for a refusal: its error.message, with the status after it. */
export const googleMessage = (reply: HttpReply): string => {
  const message = text(problemOf(reply)?.message) ?? `Google answered HTTP ${reply.status}.`
  const status = statusOf(reply)
  return status === null || message.includes(status) ? message : `${message} (${status})`
}

/** The Business Profile APIs are not enabled (or not approved) for Herald's Google project: the operator's to fix, not the account's. */
const projectRefused = (reply: HttpReply) =>
  (problemOf(reply)?.details ?? []).some((d) => d.reason === "SERVICE_DISABLED") ||
  /has not been used in project|is disabled/i.test(text(problemOf(reply)?.message) ?? "")

/** Google's per-minute quotas (300 QPM on the Business Profile APIs): without a Retry-After, a minute. */
export const MINUTE_MS = 60_000

/** A refusal of an API call (any non-2xx). */
export const publishErrorOf = (reply: HttpReply, nowMs: number, what: string): PublishError => {
  const message = googleMessage(reply)
  if (reply.status === 401)
    return PublishError.unauthorized({ message: `Google refused the account's access token: ${message}` })
  if (reply.status === 403)
    return projectRefused(reply)
      ? PublishError.refused({
          code: "upstream_rejected",
          message: `Google refused ${what}: the Business Profile APIs are not enabled for Herald's Google project (${message})`,
          networkCode: "PERMISSION_DENIED"
        })
      : PublishError.revoked({
          message: `Google does not let this account manage the location any more (${message}); connect it again.`
        })
  if (reply.status === 429)
    return PublishError.rateLimited({
      message: `Google is rate limiting the Business Profile API: ${message}`,
      retryAfterMs: retryAfterMs(reply.headers, nowMs) ?? MINUTE_MS
    })
  if (reply.status >= 400 && reply.status < 500)
    return PublishError.refused({
      code: "upstream_rejected",
      message: `Google refused ${what}: ${message}`,
      networkCode: statusOf(reply) ?? String(reply.status)
    })
  return PublishError.unavailable({ message: `Google Business Profile is unavailable: ${message}` })
}

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `Google Business Profile did not answer: ${e.message}` })

export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `Google's answer to ${what} could not be read.` })

/** invalid_grant (revoked, unused for 6 months, a consent screen in testing after 7 days) means the grant is gone; anything else is for later. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({
        message: `Google refused to renew the Business Profile access (${e.message}); connect the account again.`
      })
    : new NetworkUnavailable({
        message: `Google could not renew the Business Profile access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

export const connectError = oauthConnectError({
  platform: "google_business",
  grantor: "Google",
  network: "Google Business Profile",
  notGiven: "Google did not give the business's locations"
})
