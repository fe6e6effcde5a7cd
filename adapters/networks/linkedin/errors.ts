import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** LinkedIn's errors, mapped here once to what Herald's ports say. */

interface LinkedInProblem {
  readonly message?: unknown
  readonly code?: unknown
  readonly serviceErrorCode?: unknown
  readonly errorDetails?: {
    readonly inputErrors?: ReadonlyArray<{ readonly code?: unknown; readonly description?: unknown }>
  }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

const problemOf = (reply: HttpReply) => (jsonOf(reply) ?? {}) as LinkedInProblem

/** LinkedIn's own words for a refusal: its message, then the input errors' descriptions. */
export const linkedInMessage = (reply: HttpReply): string => {
  const body = problemOf(reply)
  const message = text(body.message)
  const inputs = (body.errorDetails?.inputErrors ?? [])
    .map((e) => text(e?.description))
    .filter((d): d is string => d !== null && d !== message)
  const parts = [message, ...inputs].filter((m): m is string => m !== null)
  return parts.length > 0 ? parts.join(" ") : `LinkedIn answered HTTP ${reply.status}.`
}

/** 401 codes: 65601 is a grant the member revoked; 65600/65602 an invalid or expired token (renewable). */
const REVOKED = 65601

/** The post a 422 DUPLICATE_POST names ("Content is a duplicate of urn:li:share:…"), when it is one. */
export const duplicateOf = (reply: HttpReply): string | null => {
  if (reply.status !== 422) return null
  const body = problemOf(reply)
  const flagged =
    (body.errorDetails?.inputErrors ?? []).some((e) => e?.code === "DUPLICATE_POST") ||
    /duplicate/i.test(text(body.message) ?? "")
  if (!flagged) return null
  return /urn:li:(?:share|ugcPost|activity):\d+/.exec(linkedInMessage(reply))?.[0] ?? ""
}

/** A refusal of a REST call (any non-2xx but 429, which the client answers as rate limited). */
export const publishErrorOf = (reply: HttpReply): PublishError => {
  const message = linkedInMessage(reply)
  const body = problemOf(reply)
  if (reply.status === 401) {
    const revoked = body.serviceErrorCode === REVOKED || body.code === "REVOKED_ACCESS_TOKEN"
    const said = `LinkedIn refused the account's access token: ${message}`
    return revoked ? PublishError.revoked({ message: said }) : PublishError.unauthorized({ message: said })
  }
  if (duplicateOf(reply) !== null) return PublishError.refused({ code: "duplicate_content", message })
  if (reply.status === 426)
    return PublishError.refused({
      code: "upstream_rejected",
      message: `${message} (LinkedIn sunsets API versions after about a year: set LINKEDIN_VERSION to a current YYYYMM).`
    })
  if (reply.status >= 400 && reply.status < 500) return PublishError.refused({ code: "upstream_rejected", message })
  return PublishError.unavailable({ message: `LinkedIn is unavailable: ${message}` })
}

export const rateLimitedError = (retryAfterMs: number, said: string | null) =>
  PublishError.rateLimited({
    message: `LinkedIn's daily limit for this account is used up${said === null ? "" : ` (${said})`}; Herald waits for its reset at midnight UTC.`,
    retryAfterMs
  })

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `LinkedIn did not answer: ${e.message}` })

/** A 2xx whose body is not what LinkedIn documents: try again later. */
export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `LinkedIn's answer to ${what} could not be read.` })

/** A refresh LinkedIn refused means the grant is gone (reconnect); anything else is for later. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({ message: `LinkedIn refused to renew the account's access (${e.message}); connect it again.` })
    : new NetworkUnavailable({
        message: `LinkedIn could not renew the account's access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

/** A connection that could not be finished, as the person's callback page shows it. */
export const connectError = oauthConnectError({
  platform: "linkedin",
  grantor: "LinkedIn",
  network: "LinkedIn",
  notGiven: "LinkedIn did not give the account's profile"
})
