import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import { type HttpReply, jsonOf, type NoAnswer } from "../shared/http.ts"
import type { OAuthRefused, OAuthUnavailable } from "../shared/oauth2Errors.ts"
import type { Throttled } from "./client.ts"

/** X's errors, mapped here once to what Herald's ports say. */

interface XProblem {
  readonly title?: unknown
  readonly detail?: unknown
  readonly type?: unknown
  readonly errors?: ReadonlyArray<{ readonly message?: unknown }>
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

/**
 * X's own words for a refusal: problem JSON's `detail` (with the per-field `errors[].message` after
 * it when they say more), or v1-style `errors[0].message`, or the title.
 */
export const xMessage = (reply: HttpReply): string => {
  const body = jsonOf(reply) as XProblem | undefined
  const detail = text(body?.detail)
  const messages = Array.isArray(body?.errors)
    ? body.errors.map((e) => text(e?.message)).filter((m): m is string => m !== null && m !== detail)
    : []
  const parts = [detail, ...messages].filter((m): m is string => m !== null)
  if (parts.length > 0) return parts.join(" ")
  return text(body?.title) ?? `X answered HTTP ${reply.status}.`
}

const isDuplicate = (message: string) => /duplicate content/i.test(message)

/** "Unsupported Authentication": X does not take these credentials for this call (reconnect). */
const isUnsupportedAuthentication = (message: string) => /unsupported authentication/i.test(message)

/** A refusal of a publishing call (any non-2xx but 429, which the client answers as Throttled). */
export const publishErrorOf = (reply: HttpReply): PublishError => {
  const message = xMessage(reply)
  if (reply.status === 401 || (reply.status === 403 && isUnsupportedAuthentication(message)))
    return PublishError.unauthorized({ message: `X refused the account's access token: ${message}` })
  if (reply.status === 403 && isDuplicate(message)) return PublishError.refused({ code: "duplicate_content", message })
  if (reply.status >= 400 && reply.status < 500) return PublishError.refused({ code: "upstream_rejected", message })
  return PublishError.unavailable({ message: `X is unavailable: ${message}` })
}

export const throttledError = (e: Throttled): PublishError =>
  PublishError.rateLimited({ message: e.message, retryAfterMs: e.retryAfterMs })

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `X did not answer: ${e.message}` })

/** A refresh X refused means the grant is gone (reconnect); anything else is for later. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({ message: `X refused to renew the account's access (${e.message}); connect it again.` })
    : new NetworkUnavailable({
        message: `X could not renew the account's access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

/** A connection that could not be finished, as the person's callback page shows it. */
export const connectError = (e: OAuthRefused | OAuthUnavailable | NoAnswer | Throttled | HttpReply): HeraldError => {
  if ("status" in e)
    return fail(
      "upstream_rejected",
      { platform: "x", status: e.status },
      `X did not give the account's profile: ${xMessage(e)}`
    )
  switch (e._tag) {
    case "OAuthRefused":
      return fail("upstream_rejected", { platform: "x", reason: e.error }, `X did not grant access: ${e.message}`)
    case "OAuthUnavailable":
    case "NoAnswer":
      return fail(
        "upstream_unavailable",
        { platform: "x" },
        `X could not be reached to finish the connection: ${e.message}`
      )
    case "Throttled":
      return fail(
        "upstream_unavailable",
        { platform: "x", retryAfterMs: e.retryAfterMs },
        `X is rate limiting: ${e.message}`
      )
  }
}
