import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, jsonOf, type NoAnswer } from "../shared/http.ts"
import { type OAuthRefused, type OAuthUnavailable, oauthConnectError } from "../shared/oauth2Errors.ts"

/** TikTok's errors (`{data, error: {code, message, log_id}}` and status fail reasons), mapped here once. */

interface TikTokEnvelope {
  readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly log_id?: unknown }
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)

/** TikTok's error code (`ok` on success), or null when the answer has none. */
export const codeOf = (reply: HttpReply): string | null => text(((jsonOf(reply) ?? {}) as TikTokEnvelope).error?.code)

/** TikTok's own words: its message, the code and the log id (which TikTok's support asks for). */
export const tiktokMessage = (reply: HttpReply): string => {
  const error = ((jsonOf(reply) ?? {}) as TikTokEnvelope).error
  const message = text(error?.message) ?? `TikTok answered HTTP ${reply.status}.`
  const code = text(error?.code)
  const log = text(error?.log_id)
  return `${message}${code === null ? "" : ` (${code}${log === null ? "" : `, log_id ${log}`})`}`
}

/** A per-minute window (init 6, status 30 per token): try again in a minute. */
export const MINUTE_MS = 60_000
/** The creator's or the app's day is used up: try again in an hour (TikTok names no reset). */
const LATER_MS = 3600_000

/** TikTok refuses the privacy level: it is not one the creator allows (or the app is not audited for it). */
export const privacyConflict = (message: string) => PublishError.refused({ code: "tiktok_privacy_conflict", message })

/** A refusal of an API call (a non-2xx, or an error code other than ok). */
export const publishErrorOf = (reply: HttpReply): PublishError => {
  const message = tiktokMessage(reply)
  switch (codeOf(reply)) {
    case "access_token_invalid":
      return PublishError.unauthorized({ message: `TikTok refused the account's access token: ${message}` })
    case "scope_not_authorized":
    case "scope_permission_missed":
      return PublishError.revoked({ message: `The TikTok account did not allow what posting needs: ${message}` })
    case "rate_limit_exceeded":
      return PublishError.rateLimited({ message, retryAfterMs: MINUTE_MS })
    case "spam_risk_too_many_posts":
    case "spam_risk_too_many_pending_share":
    case "reached_active_user_cap":
      return PublishError.unavailable({
        code: "tiktok_cannot_post",
        message: `TikTok says the creator cannot post now: ${message}`,
        retryAfterMs: LATER_MS
      })
    case "privacy_level_option_mismatch":
    case "unaudited_client_can_only_post_to_private_accounts":
      return privacyConflict(message)
    case "url_ownership_unverified":
      return PublishError.refused({
        code: "upstream_rejected",
        message: `${message}: verify the domain of HERALD_PUBLIC_URL (where TikTok fetches photos) in TikTok's developer portal.`
      })
  }
  if (reply.status === 401)
    return PublishError.unauthorized({ message: `TikTok refused the account's access token: ${message}` })
  if (reply.status === 429) return PublishError.rateLimited({ message, retryAfterMs: MINUTE_MS })
  if (reply.status >= 400 && reply.status < 500) return PublishError.refused({ code: "upstream_rejected", message })
  return PublishError.unavailable({ message: `TikTok is unavailable: ${message}` })
}

/** What a FAILED status's fail_reason means, in words a person can act on. */
const FAIL_REASONS: Readonly<Record<string, string>> = {
  file_format_check_failed: "TikTok does not take the file's format",
  duration_check_failed: "the video is longer or shorter than TikTok allows this creator",
  frame_rate_check_failed: "TikTok does not take the video's frame rate",
  picture_size_check_failed: "TikTok does not take the images' size",
  video_pull_failed: "TikTok could not fetch the video",
  photo_pull_failed: "TikTok could not fetch the photos (is HERALD_PUBLIC_URL reachable from the internet?)",
  spam_risk_too_many_posts: "the creator posted too much today",
  internal: "TikTok failed on its side"
}

export const failedError = (reason: string | undefined) => {
  const code = reason === "spam_risk_too_many_posts" ? "tiktok_cannot_post" : "upstream_rejected"
  const message = `TikTok did not publish the post: ${FAIL_REASONS[reason ?? ""] ?? reason ?? "no reason given"}${reason === undefined ? "" : ` (${reason})`}.`
  // Too many posts today and TikTok's own trouble pass; the rest are refusals of this post.
  return reason === "spam_risk_too_many_posts" || reason === "internal"
    ? PublishError.unavailable({ code, message })
    : PublishError.refused({ code, message, networkCode: reason })
}

export const noAnswerError = (e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `TikTok did not answer: ${e.message}` })

export const unreadable = (what: string) =>
  PublishError.unavailable({ message: `TikTok's answer to ${what} could not be read.` })

/** A refused refresh (invalid_grant: a rotated-out or expired refresh token) means the grant is gone. */
export const refreshError = (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
  e._tag === "OAuthRefused"
    ? new GrantRevoked({ message: `TikTok refused to renew the account's access (${e.message}); connect it again.` })
    : new NetworkUnavailable({
        message: `TikTok could not renew the account's access now: ${e.message}`,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
      })

export const connectError = oauthConnectError({
  platform: "tiktok",
  grantor: "TikTok",
  network: "TikTok",
  notGiven: "TikTok did not give the account's profile"
})
