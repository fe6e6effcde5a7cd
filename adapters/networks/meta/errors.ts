import { GrantRevoked, NetworkUnavailable } from "../../../application/ports/Connectors.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import type { Platform } from "../../../domain/platforms.ts"
import { type HttpReply, jsonOf, type NoAnswer } from "../shared/http.ts"
import type { OAuthRefused, OAuthUnavailable } from "../shared/oauth2Errors.ts"

/**
 * Meta's errors (Facebook, Instagram, Threads share one shape), mapped here once:
 * `{"error":{"message","type","code","error_subcode","error_user_title","error_user_msg","is_transient","fbtrace_id"}}`
 * (Instagram Login's token endpoint says `{"error_type","code","error_message"}`). Sources:
 * developers.facebook.com/docs/graph-api/guides/error-handling, shared/notes/network-apis.md.
 */
export interface MetaProblem {
  readonly code: number | null
  readonly subcode: number | null
  readonly type: string | null
  /** Meta's message for developers. */
  readonly message: string
  /** Meta's words for the person (policy blocks, rejected media), when it gave them. */
  readonly userMessage: string | null
  readonly transient: boolean
}

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null)
const num = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value)
    ? value
    : typeof value === "string" && /^\d+$/.test(value)
      ? Number(value)
      : null

/** The problem a reply describes, or null when it is not one of Meta's error bodies. */
export const metaProblem = (reply: HttpReply): MetaProblem | null => {
  const body = jsonOf(reply) as Record<string, any> | undefined
  if (body === undefined || body === null || typeof body !== "object") return null
  const e = body.error
  if (e !== null && typeof e === "object") {
    const title = text(e.error_user_title)
    const userMsg = text(e.error_user_msg)
    return {
      code: num(e.code),
      subcode: num(e.error_subcode),
      type: text(e.type),
      message: text(e.message) ?? `HTTP ${reply.status}`,
      userMessage: userMsg === null ? null : title === null ? userMsg : `${title}: ${userMsg}`,
      transient: e.is_transient === true
    }
  }
  const flat = text(body.error_message)
  if (flat !== null)
    return {
      code: num(body.code),
      subcode: null,
      type: text(body.error_type),
      message: flat,
      userMessage: null,
      transient: false
    }
  return null
}

/** What the person reads: Meta's user-facing words when it gave them, else its message. */
export const wordsOf = (problem: MetaProblem) => problem.userMessage ?? problem.message

/** Throttling: application, user, page and business-use-case limits (error-handling guide; [MX]). */
export const isThrottle = (problem: MetaProblem) => {
  const c = problem.code
  return c === 4 || c === 17 || c === 32 || c === 613 || c === 341 || (c !== null && c >= 80_000 && c <= 80_014)
}

/**
 * The token is gone for good: 190 (expired, revoked, password changed, app removed: subcodes 458,
 * 459, 460, 463, 464, 467), 102 (session), and "page publishing authorization required" (1404078).
 * Meta's long-lived tokens cannot be renewed once refused, so these never go through a refresh.
 */
export const isRevocation = (problem: MetaProblem) =>
  problem.code === 190 || problem.code === 102 || problem.subcode === 1_404_078

/** 506 "Duplicate status message"; 1366051 "These photos were already posted". */
const isDuplicate = (problem: MetaProblem) => problem.code === 506 || problem.subcode === 1_366_051

/** Instagram's 24-hour publishing cap (2207042): a wait, not a refusal. */
const isDailyCap = (problem: MetaProblem) => problem.subcode === 2_207_042

/** Meta could not fetch or read the media just now: try again (2207003, 2207052, 2207082). */
const isTransientMedia = (problem: MetaProblem) =>
  problem.subcode === 2_207_003 || problem.subcode === 2_207_052 || problem.subcode === 2_207_082

/** A throttle that names no time to wait: ask again in five minutes (Meta's windows are an hour long). */
export const UNNAMED_THROTTLE_MS = 5 * 60_000
/** The rolling 24-hour publishing cap names no reset: look again in an hour. */
export const DAILY_CAP_WAIT_MS = 60 * 60_000

/**
 * The longest wait Meta names in its usage headers: `X-Business-Use-Case-Usage` (per business,
 * entries with `estimated_time_to_regain_access` in minutes) and `X-App-Usage` / `X-Ad-Account-Usage`
 * when they carry it. Undefined when none names a wait.
 */
export const usageWaitMs = (headers: Headers): number | undefined => {
  let minutes = 0
  const read = (value: unknown) => {
    const m = num((value as { estimated_time_to_regain_access?: unknown } | null)?.estimated_time_to_regain_access)
    if (m !== null && m > minutes) minutes = m
  }
  for (const name of ["x-business-use-case-usage", "x-app-usage", "x-ad-account-usage"]) {
    const raw = headers.get(name)
    if (raw === null) continue
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      continue
    }
    if (parsed === null || typeof parsed !== "object") continue
    read(parsed)
    for (const entry of Object.values(parsed as Record<string, unknown>)) if (Array.isArray(entry)) entry.forEach(read)
  }
  return minutes > 0 ? minutes * 60_000 : undefined
}

/** How long a throttled call waits: what Meta's headers name, else five minutes (an hour for the daily cap). */
export const throttleWaitMs = (reply: HttpReply, problem: MetaProblem) =>
  usageWaitMs(reply.headers) ?? (isDailyCap(problem) ? DAILY_CAP_WAIT_MS : UNNAMED_THROTTLE_MS)

export const isThrottled = (reply: HttpReply, problem: MetaProblem | null) =>
  reply.status === 429 || (problem !== null && (isThrottle(problem) || isDailyCap(problem)))

/** A refusal of a publishing call by `network` ("Instagram"…), as Herald's port says it. Throttling is the client's (GraphThrottled). */
export const publishErrorOf = (network: string, reply: HttpReply): PublishError => {
  const problem = metaProblem(reply)
  if (problem === null) {
    if (reply.status >= 500 || reply.status === 429)
      return PublishError.unavailable({ message: `${network} is unavailable (HTTP ${reply.status}).` })
    return PublishError.refused({
      code: "upstream_rejected",
      message: `${network} refused the request (HTTP ${reply.status}).`
    })
  }
  const words = wordsOf(problem)
  if (isRevocation(problem))
    return PublishError.revoked({ message: `${network} no longer accepts this account's access: ${problem.message}` })
  if (isDuplicate(problem)) return PublishError.refused({ code: "duplicate_content", message: words })
  if (isThrottled(reply, problem))
    return PublishError.rateLimited({
      message: `${network} is rate limiting this account: ${problem.message}`,
      retryAfterMs: throttleWaitMs(reply, problem)
    })
  if (problem.transient || isTransientMedia(problem) || reply.status >= 500 || problem.code === 1 || problem.code === 2)
    return PublishError.unavailable({ message: `${network} could not do it now: ${words}` })
  // A permission the grant lacks (10, 200-299): said so, but the account is left connected (the post, not the grant, may be at fault).
  if (problem.code === 10 || (problem.code !== null && problem.code >= 200 && problem.code <= 299))
    return PublishError.refused({
      code: "upstream_rejected",
      message: `${words} (a permission may be missing: connecting the account again grants what Herald asks for)`
    })
  return PublishError.refused({ code: "upstream_rejected", message: words })
}

export const noAnswerError = (network: string, e: NoAnswer): PublishError =>
  PublishError.unavailable({ message: `${network} did not answer: ${e.message}` })

/** A renewal Meta refused means the grant is gone (reconnect); anything else is for later. */
export const refreshError =
  (network: string) =>
  (e: OAuthRefused | OAuthUnavailable): GrantRevoked | NetworkUnavailable =>
    e._tag === "OAuthRefused"
      ? new GrantRevoked({
          message: `${network} refused to renew the account's access (${e.message}); connect it again.`
        })
      : new NetworkUnavailable({
          message: `${network} could not renew the account's access now: ${e.message}`,
          ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs })
        })

/** A connection that could not be finished, as the person's callback page shows it. */
export const connectError =
  (network: string, platform: Platform) =>
  (e: OAuthRefused | OAuthUnavailable | PublishError | HeraldError): HeraldError => {
    if (e._tag === "HeraldError") return e
    if (e._tag === "OAuthRefused")
      return fail("upstream_rejected", { platform, reason: e.error }, `${network} did not grant access: ${e.message}`)
    if (e._tag === "OAuthUnavailable")
      return fail(
        "upstream_unavailable",
        { platform },
        `${network} could not be reached to finish the connection: ${e.message}`
      )
    return e.retryable
      ? fail(
          "upstream_unavailable",
          { platform, ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs }) },
          `${network} could not finish the connection now: ${e.message}`
        )
      : fail("upstream_rejected", { platform }, `${network} refused to finish the connection: ${e.message}`)
  }
