import { XRPCError } from "@atproto/api"
import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"

/** What an XRPC call answered when it failed: `answered` is false when no HTTP answer came (refused, reset, timed out). */
export interface XrpcFailure {
  readonly status: number
  /** The XRPC error name (ExpiredToken, RateLimitExceeded, InvalidRequest...). */
  readonly error: string
  readonly message: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly answered: boolean
}

export const failureOf = (cause: unknown): XrpcFailure => {
  if (cause instanceof XRPCError) {
    const answered = cause.status >= 100
    return { status: cause.status, error: cause.error, message: cause.message, headers: cause.headers ?? {}, answered }
  }
  return {
    status: 1,
    error: "Unknown",
    message: String((cause as Error)?.message ?? cause),
    headers: {},
    answered: false
  }
}

/** The access token is refused: a renewed session may work. */
const sessionRefused = new Set(["ExpiredToken", "InvalidToken", "AuthenticationRequired"])
/** The account cannot act at all; another token will not help. */
const accountGone = new Set(["AccountTakedown", "AccountDeactivated", "AccountSuspended"])

export const isSessionRefused = (f: XrpcFailure) => f.answered && (sessionRefused.has(f.error) || f.status === 401)
export const isAccountGone = (f: XrpcFailure) => accountGone.has(f.error)
export const isRateLimited = (f: XrpcFailure) => f.status === 429 || f.error === "RateLimitExceeded"
export const isRecordNotFound = (f: XrpcFailure) => f.error === "RecordNotFound"

/**
 * How long the network asks us to wait, from its `RateLimit-Reset` (epoch seconds) or `Retry-After`
 * (seconds); `now` is the network's clock, i.e. the real one.
 */
export const waitFromHeaders = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): number | undefined => {
  const reset = Number(headers["ratelimit-reset"])
  if (headers["ratelimit-reset"] !== undefined && Number.isFinite(reset)) return Math.max(1000, reset * 1000 - now)
  const after = Number(headers["retry-after"])
  if (headers["retry-after"] !== undefined && Number.isFinite(after)) return Math.max(1000, after * 1000)
  return undefined
}

/** The person-facing text: Bluesky's own words, named as Bluesky's. */
const said = (f: XrpcFailure) => `Bluesky says: ${f.message || f.error}`

/** One mapping of Bluesky's answers to a publish call, for the pipeline. */
export const publishErrorOf = (f: XrpcFailure): PublishError => {
  if (isRateLimited(f))
    return PublishError.rateLimited({
      message: said(f),
      retryAfterMs: waitFromHeaders(f.headers, Date.now()) ?? 60_000
    })
  if (isAccountGone(f)) return PublishError.revoked({ message: said(f) })
  if (isSessionRefused(f)) return PublishError.unauthorized({ message: said(f) })
  if (!f.answered || f.status >= 500)
    return PublishError.unavailable({ message: f.answered ? said(f) : `Bluesky did not answer: ${f.message}` })
  return PublishError.refused({ code: "upstream_rejected", message: said(f) })
}

/** The gate says this account is throttled for `waitMs` more: no call is made. */
export const throttled = (waitMs: number) =>
  PublishError.rateLimited({
    message: `Bluesky asked Herald to slow down for this account; trying again in ${Math.ceil(waitMs / 1000)} s.`,
    retryAfterMs: waitMs
  })

/** Bluesky's answer to a log-in from the connect form, as the person should see it. */
export const connectErrorOf = (f: XrpcFailure): HeraldError => {
  if (isRateLimited(f)) {
    const waitMs = waitFromHeaders(f.headers, Date.now())
    return fail(
      "rate_limited",
      waitMs === undefined ? {} : { retryAfterSeconds: Math.ceil(waitMs / 1000) },
      `${said(f)}. Bluesky limits log-ins per account; try again later.`
    )
  }
  if (isAccountGone(f)) return fail("upstream_rejected", { reason: f.message }, said(f))
  if (f.error === "AuthenticationRequired" || f.status === 401)
    return invalidFields(
      ["appPassword"],
      `Bluesky did not accept this handle and app password (${f.message}). Check the handle, and create a new app password at https://bsky.app/settings/app-passwords if needed.`
    )
  if (!f.answered || f.status >= 500)
    return fail("upstream_unavailable", {}, f.answered ? said(f) : `Bluesky did not answer: ${f.message}`)
  return invalidFields(["handle"], `${said(f)}. Check the handle (for example alice.bsky.social).`)
}

/** Bluesky's answer to a renewal: a refused log-in means a person must reconnect; anything else is passing. */
export const renewalErrorOf = (f: XrpcFailure): GrantRevoked | NetworkUnavailable => {
  if (isRateLimited(f))
    return new NetworkUnavailable({ message: said(f), retryAfterMs: waitFromHeaders(f.headers, Date.now()) })
  if (isAccountGone(f) || isSessionRefused(f))
    return new GrantRevoked({
      message: `${said(f)}. The app password Herald keeps no longer works (revoked or changed); reconnect the account with a new one.`
    })
  return new NetworkUnavailable({ message: f.answered ? said(f) : `Bluesky did not answer: ${f.message}` })
}
