import { Clock, Effect, Schema } from "effect"
import { type HttpReply, type HttpRequest, type NoAnswer, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { linkedInMessage } from "./errors.ts"

/** LinkedIn's daily limit for the account is used up, as LinkedIn said on this call or an earlier one. */
export class DailyLimit extends Schema.TaggedError<DailyLimit>()("DailyLimit", {
  retryAfterMs: Schema.Number,
  said: Schema.NullOr(Schema.String)
}) {}

export interface LinkedInCall {
  /** The member or page the call acts for (its daily limits); null before it is known (connecting). */
  readonly author: string | null
  readonly accessToken: string
  readonly method: HttpRequest["method"]
  readonly url: string
  readonly json?: unknown
  readonly bytes?: Uint8Array<ArrayBuffer>
  /** Rest.li's method name where LinkedIn wants it said (finders: FINDER). */
  readonly restliMethod?: string
  /** Upload URLs are LinkedIn's own pre-signed ones: no REST headers. */
  readonly upload?: boolean
  readonly timeoutMs?: number
}

export const CALL_TIMEOUT_MS = 30_000
/** An upload part is up to 4 MiB; slow links get longer. */
export const UPLOAD_TIMEOUT_MS = 120_000
const DAY_MS = 86_400_000

export type LinkedInClient = ReturnType<typeof makeLinkedInClient>

/**
 * Calls LinkedIn with its versioned REST headers (`LinkedIn-Version` from one setting), honouring its
 * limits: LinkedIn's limits are per day and reset at midnight UTC, and its 429 names no reset, so a
 * 429 closes the account until then and later calls are refused without reaching LinkedIn.
 */
export const makeLinkedInClient = (gate: RateGate, version: string) => {
  const call = (c: LinkedInCall): Effect.Effect<HttpReply, DailyLimit | NoAnswer> =>
    Effect.gen(function* () {
      const keys = c.author === null ? [] : [c.author]
      const closed = yield* gate.waitFor(keys)
      if (closed > 0) return yield* new DailyLimit({ retryAfterMs: closed, said: null })
      const headers: Record<string, string> = { authorization: `Bearer ${c.accessToken}` }
      if (c.upload === true) headers["content-type"] = "application/octet-stream"
      else {
        headers["linkedin-version"] = version
        headers["x-restli-protocol-version"] = "2.0.0"
        if (c.json !== undefined) headers["content-type"] = "application/json"
        if (c.restliMethod !== undefined) headers["x-restli-method"] = c.restliMethod
      }
      const reply = yield* send({
        method: c.method,
        url: c.url,
        headers,
        timeoutMs: c.timeoutMs ?? CALL_TIMEOUT_MS,
        ...(c.json !== undefined ? { body: JSON.stringify(c.json) } : c.bytes !== undefined ? { body: c.bytes } : {})
      })
      if (reply.status === 429) {
        const now = yield* Clock.currentTimeMillis
        const midnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS
        if (c.author !== null) yield* gate.closeUntil(c.author, midnight)
        return yield* new DailyLimit({ retryAfterMs: midnight - now, said: linkedInMessage(reply) })
      }
      return reply
    })
  return { call }
}
