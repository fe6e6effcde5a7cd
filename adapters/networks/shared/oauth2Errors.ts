import * as oauth from "oauth4webapi"
import { Schema } from "effect"
import type { PublishError } from "../../../application/ports/Publishers.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { Platform } from "../../../domain/platforms.ts"

// How a token endpoint's or a callback's failure reaches a connector: refused (reconnect) or unavailable (later).

/** The network refused: the person denied access, or the code or refresh token is not (or no longer) valid. */
export class OAuthRefused extends Schema.TaggedError<OAuthRefused>()("OAuthRefused", {
  message: Schema.String,
  /** The OAuth error code (invalid_grant, access_denied...), or `http_<status>` when there was none. */
  error: Schema.String
}) {}

/** The token endpoint could not answer now (down, throttled, timed out): try again later. */
export class OAuthUnavailable extends Schema.TaggedError<OAuthUnavailable>()("OAuthUnavailable", {
  message: Schema.String,
  retryAfterMs: Schema.optional(Schema.Number)
}) {}

/** A non-OAuth error body's message (Pinterest's `{code, message}`), if it has one. */
export const wordsOf = (text: string): string | null => {
  try {
    const body = JSON.parse(text) as { message?: unknown; error_description?: unknown }
    const words =
      typeof body.message === "string"
        ? body.message
        : typeof body.error_description === "string"
          ? body.error_description
          : null
    return words === null || words.trim() === "" ? null : words.trim().slice(0, 500)
  } catch {
    return null
  }
}

/**
 * The sentence shown for an error the network sent back on the callback URL (RFC 6749 section
 * 4.1.2.1). Anyone can write a callback URL, so its error_description (and an unknown code) is never
 * shown: one fixed sentence per code.
 */
const callbackSentences: Readonly<Record<string, string>> = {
  access_denied: "Access was not granted on the network's page.",
  invalid_request: "The network found the request for access malformed.",
  unauthorized_client: "The network does not let Herald's app ask for access this way.",
  unsupported_response_type: "The network does not hand out access the way Herald asks.",
  invalid_scope: "The network refused the permissions Herald asks for.",
  server_error: "The network failed while asking for access; try again.",
  temporarily_unavailable: "The network is busy; try again in a moment."
}

/** The callback's error code as Herald names it: one of RFC 6749's, else "other". */
export const callbackErrorCode = (error: string | undefined): string =>
  error !== undefined && Object.hasOwn(callbackSentences, error) ? error : "other"

/** The fixed sentence for a callback's error code. */
export const callbackRefusal = (error: string | undefined): OAuthRefused =>
  new OAuthRefused({
    message: callbackSentences[callbackErrorCode(error)] ?? "The network did not grant access.",
    error: callbackErrorCode(error)
  })

const described = (error: string, description: string | undefined) => (description ? `${error}: ${description}` : error)

/**
 * The token endpoint's failure, once: a 4xx refusal of the grant is its end, the rest is "try again
 * later". A refusal of Herald's own app (invalid_client, unauthorized_client: a wrong client id or
 * secret in the configuration) is not the account's fault: it must not mark every account for
 * reconnection, so it is "later", with a message for the operator.
 */
const appRefused = new Set(["invalid_client", "unauthorized_client"])
const refusedOrMisconfigured = (error: string, message: string): OAuthRefused | OAuthUnavailable =>
  appRefused.has(error)
    ? new OAuthUnavailable({
        message: `The network refused Herald's app credentials (${message}): check the client id and secret in the configuration.`
      })
    : new OAuthRefused({ message, error })

export const classify = (cause: unknown): OAuthRefused | OAuthUnavailable => {
  if (cause instanceof OAuthRefused || cause instanceof OAuthUnavailable) return cause
  if (cause instanceof oauth.ResponseBodyError)
    return refusedOrMisconfigured(cause.error, described(cause.error, cause.error_description))
  if (cause instanceof oauth.AuthorizationResponseError) return callbackRefusal(cause.error)
  if (cause instanceof oauth.WWWAuthenticateChallengeError)
    return refusedOrMisconfigured("invalid_client", cause.message)
  if (cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError"))
    return new OAuthUnavailable({ message: "The token endpoint did not answer in time." })
  const message = cause instanceof Error ? cause.message : String(cause)
  return new OAuthUnavailable({ message: `The token endpoint could not be used: ${message}` })
}

/** An OAuth network's names in its connect failures: who grants access, who answers, and what it failed to give. */
export interface ConnectWords {
  readonly platform: Platform
  /** Who grants access (Google for YouTube and Business Profile). */
  readonly grantor: string
  /** Whose API is called after the grant. */
  readonly network: string
  /** The sentence, before the network's words, when it answered without the profile Herald needs. */
  readonly notGiven: string
}

/** How an OAuth network's connect fails, one style for every such network: denied or spent is rejected, down is unavailable. */
export const oauthConnectError =
  (words: ConnectWords) =>
  (e: OAuthRefused | OAuthUnavailable | PublishError): HeraldError => {
    const { platform } = words
    switch (e._tag) {
      case "OAuthRefused":
        return fail(
          "upstream_rejected",
          { platform, reason: e.error },
          `${words.grantor} did not grant access: ${e.message}`
        )
      case "OAuthUnavailable":
        return fail(
          "upstream_unavailable",
          { platform },
          `${words.grantor} could not be reached to finish the connection: ${e.message}`
        )
      case "PublishError":
        return e.retryable
          ? fail(
              "upstream_unavailable",
              { platform },
              `${words.network} could not be reached to finish the connection: ${e.message}`
            )
          : fail("upstream_rejected", { platform }, `${words.notGiven}: ${e.message}`)
    }
  }
