import { PublishError } from "../../../application/ports/Publishers.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { HttpReply, NoAnswer } from "../shared/http.ts"
import { mastodonMessage, type Throttled } from "./client.ts"
import type { InstanceRefused } from "./instance.ts"

/** Mastodon's errors, mapped here once to what Herald's ports say. */

/** Doorkeeper's words for a token the person or the instance revoked (an expired one says "expired"). */
const isRevoked = (message: string) => /revoked/i.test(message)

/** A refusal of a publishing call (any non-2xx but 429, which the client answers as Throttled). */
export const publishErrorOf = (reply: HttpReply, what = "the status"): PublishError => {
  const message = mastodonMessage(reply)
  if (reply.status === 401)
    return isRevoked(message)
      ? PublishError.revoked({ message: `The instance says the account's access was revoked: ${message}` })
      : PublishError.unauthorized({ message: `The instance refused the account's access token: ${message}` })
  // 403: the account is suspended or the token lacks a scope; a person must look at it.
  if (reply.status === 403)
    return PublishError.revoked({ message: `The instance does not let this account post: ${message}` })
  if (reply.status >= 400 && reply.status < 500)
    return PublishError.refused({
      code: "upstream_rejected",
      message: `The instance refused ${what}: ${message}`,
      networkCode: String(reply.status)
    })
  return PublishError.unavailable({ message: `The instance is unavailable: ${message}` })
}

export const unreadable = (reply: HttpReply, what: string) =>
  PublishError.unavailable({ message: `The instance's answer to ${what} could not be read (HTTP ${reply.status}).` })

export const throttledError = (e: Throttled): PublishError =>
  PublishError.rateLimited({ message: e.message, retryAfterMs: e.retryAfterMs })

/** The instance's address refused (for good), or its name not found now (tried again later). */
export const instanceRefusedError = (e: InstanceRefused): PublishError =>
  e.unresolvable === true
    ? PublishError.unavailable({ message: e.message })
    : PublishError.refused({ code: "upstream_rejected", message: e.message })

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `The instance did not answer: ${e.message}` })

/** A connection that could not be finished, as the person's page (or GET /connect/mastodon) shows it. */
export const connectError = (e: InstanceRefused | NoAnswer | Throttled | HttpReply, step: string): HeraldError => {
  if ("status" in e)
    return e.status >= 500
      ? fail(
          "upstream_unavailable",
          { platform: "mastodon", status: e.status },
          `The instance failed while ${step}: ${mastodonMessage(e)}`
        )
      : fail(
          "upstream_rejected",
          { platform: "mastodon", status: e.status, reason: mastodonMessage(e) },
          `The instance refused ${step}: ${mastodonMessage(e)}`
        )
  switch (e._tag) {
    case "InstanceRefused":
      return fail("validation_failed", { fields: ["instance"] }, e.message)
    case "NoAnswer":
      return fail("upstream_unavailable", { platform: "mastodon" }, `The instance could not be reached: ${e.message}`)
    case "Throttled":
      return fail(
        "upstream_unavailable",
        { platform: "mastodon", retryAfterMs: e.retryAfterMs },
        `The instance is rate limiting: ${e.message}`
      )
  }
}
