import { Clock, Effect, Schema } from "effect"
import { type HttpReply, type HttpRequest, jsonOf, type NoAnswer, retryAfterMs, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"

/** Which of an instance's limits a call counts against: Mastodon's API-wide one, or its uploads' or deletes' own. */
export type Limit = "api" | "media" | "delete"

/** The instance's window for the call is used up, as it said on this call or an earlier one. */
export class Throttled extends Schema.TaggedError<Throttled>()("Throttled", {
  message: Schema.String,
  retryAfterMs: Schema.Number
}) {}

export interface MastodonCall {
  /** The instance's origin, https://host. */
  readonly origin: string
  readonly method: HttpRequest["method"]
  readonly path: string
  /** The account's token; null for the app's own calls (registration, the token exchange, the instance's profile). */
  readonly accessToken: string | null
  /** Whose window the call counts against (the account's id at the instance); null for the app's own calls. */
  readonly account: string | null
  readonly limit?: Limit
  readonly json?: unknown
  readonly form?: FormData | URLSearchParams
  /** Sent as `Idempotency-Key` (POST /api/v1/statuses): a repeat within an hour gives back the same status. */
  readonly idempotencyKey?: string
  readonly timeoutMs?: number
}

export const CALL_TIMEOUT_MS = 30_000
/** Uploads carry the file: more time than an API call. */
export const UPLOAD_TIMEOUT_MS = 120_000
/** A 429 that names no reset: Mastodon's windows are 5 minutes (API) and 30 (media uploads, deletes). */
const UNNAMED_RESET_MS: Record<Limit, number> = { api: 5 * 60_000, media: 30 * 60_000, delete: 30 * 60_000 }

/** Mastodon's words for a refusal: `{"error": "..."}` (with `error_description` on OAuth answers). */
export const mastodonMessage = (reply: HttpReply): string => {
  const body = jsonOf(reply) as { readonly error?: unknown; readonly error_description?: unknown } | undefined
  const parts = [body?.error_description, body?.error].filter(
    (p): p is string => typeof p === "string" && p.trim() !== ""
  )
  return parts[0]?.trim() ?? `The instance answered HTTP ${reply.status}.`
}

/** X-RateLimit-Reset: an ISO 8601 time in Mastodon's answers (a number of seconds is read as epoch seconds). */
const resetOf = (headers: Headers): number | null => {
  const value = headers.get("x-ratelimit-reset")?.trim()
  if (value === undefined || value === "") return null
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : at
}

export type MastodonClient = ReturnType<typeof makeMastodonClient>

/**
 * Calls instances, honouring their limits: a call whose window the instance said is used up
 * (`X-RateLimit-Remaining: 0`, a 429) is refused as Throttled until the reset it named, without
 * calling the instance again.
 */
export const makeMastodonClient = (gate: RateGate) => {
  const keyOf = (c: MastodonCall) => (c.account === null ? null : `${c.origin} ${c.account} ${c.limit ?? "api"}`)

  const call = (c: MastodonCall): Effect.Effect<HttpReply, Throttled | NoAnswer> =>
    Effect.gen(function* () {
      const key = keyOf(c)
      const closed = key === null ? 0 : yield* gate.waitFor([key])
      if (closed > 0)
        return yield* new Throttled({
          message: `The instance's rate limit for this account is used up; Herald waits ${Math.ceil(closed / 1000)} s for its reset.`,
          retryAfterMs: closed
        })
      const headers: Record<string, string> = { accept: "application/json" }
      if (c.accessToken !== null) headers.authorization = `Bearer ${c.accessToken}`
      if (c.json !== undefined) headers["content-type"] = "application/json"
      if (c.idempotencyKey !== undefined) headers["idempotency-key"] = c.idempotencyKey
      const reply = yield* send({
        method: c.method,
        url: `${c.origin}${c.path}`,
        headers,
        timeoutMs: c.timeoutMs ?? CALL_TIMEOUT_MS,
        // Every instance was named by a person: the address guard judges each connection.
        named: true,
        ...(c.json !== undefined ? { body: JSON.stringify(c.json) } : c.form !== undefined ? { body: c.form } : {})
      })
      const now = yield* Clock.currentTimeMillis
      const reset = resetOf(reply.headers)
      if (key !== null && reply.headers.get("x-ratelimit-remaining")?.trim() === "0" && reset !== null)
        yield* gate.closeUntil(key, reset)
      if (reply.status === 429) {
        const until =
          reset !== null && reset > now
            ? reset
            : now + (retryAfterMs(reply.headers, now) ?? UNNAMED_RESET_MS[c.limit ?? "api"])
        if (key !== null) yield* gate.closeUntil(key, until)
        const wait = Math.max(1000, until - now)
        return yield* new Throttled({
          message: `The instance is rate limiting this account (${mastodonMessage(reply)}); Herald waits ${Math.ceil(wait / 1000)} s for the reset.`,
          retryAfterMs: wait
        })
      }
      return reply
    })

  return { call }
}
