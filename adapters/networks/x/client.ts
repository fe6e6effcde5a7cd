import { Clock, Effect, Schema } from "effect"
import { type HttpReply, type HttpRequest, type NoAnswer, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import { xMessage } from "./errors.ts"

/** Which of X's windows a call counts against (X limits each endpoint per user per 15 minutes). */
export type Limit = "tweets" | "media" | "timeline" | "me" | "deletes"

/** X's window for the call is used up, as X said on this call or an earlier one. */
export class Throttled extends Schema.TaggedError<Throttled>()("Throttled", {
  message: Schema.String,
  retryAfterMs: Schema.Number
}) {}

export interface XCall {
  readonly limit: Limit
  /** The X user the token acts for; null before it is known (the profile read when connecting). */
  readonly userId: string | null
  readonly accessToken: string
  readonly method: HttpRequest["method"]
  readonly url: string
  readonly json?: unknown
  readonly form?: FormData
  readonly timeoutMs?: number
  /** Sending it twice is harmless (an append names its segment). */
  readonly idempotent?: boolean
}

export const CALL_TIMEOUT_MS = 30_000
/** A 429 that names no reset: ask again in a minute (X's windows are 15 minutes; its answers name the reset). */
const UNNAMED_RESET_MS = 60_000

/** The gate's keys for a call: posting also counts against the account's and the app's 24-hour caps. */
const keysOf = (limit: Limit, userId: string | null): ReadonlyArray<string> =>
  userId === null
    ? []
    : limit === "tweets"
      ? [`${userId}:tweets`, `${userId}:tweets24h`, "app:tweets24h"]
      : [`${userId}:${limit}`]

const resetAt = (headers: Headers, name: string): number | null => {
  const value = Number(headers.get(name))
  return Number.isFinite(value) && value > 0 ? value * 1000 : null
}

export type XClient = ReturnType<typeof makeXClient>

/**
 * Calls X, honouring its limits: a call whose window X said is used up (`x-rate-limit-remaining: 0`,
 * a 24-hour cap at 0, a 429) is refused as Throttled until the reset X named, without calling X.
 */
export const makeXClient = (gate: RateGate) => {
  const learn = (call: XCall, reply: HttpReply) =>
    Effect.gen(function* () {
      if (call.userId === null) return
      const h = reply.headers
      const window = resetAt(h, "x-rate-limit-reset")
      if (h.get("x-rate-limit-remaining") === "0" && window !== null)
        yield* gate.closeUntil(`${call.userId}:${call.limit}`, window)
      const userDay = resetAt(h, "x-user-limit-24hour-reset")
      if (h.get("x-user-limit-24hour-remaining") === "0" && userDay !== null)
        yield* gate.closeUntil(`${call.userId}:tweets24h`, userDay)
      const appDay = resetAt(h, "x-app-limit-24hour-reset")
      if (h.get("x-app-limit-24hour-remaining") === "0" && appDay !== null)
        yield* gate.closeUntil("app:tweets24h", appDay)
      if (reply.status === 429 && (yield* gate.waitFor(keysOf(call.limit, call.userId))) === 0) {
        // Throttled, but no header named a reset still ahead: wait for the window's reset, or a minute.
        const now = yield* Clock.currentTimeMillis
        yield* gate.closeUntil(
          `${call.userId}:${call.limit}`,
          window !== null && window > now ? window : now + UNNAMED_RESET_MS
        )
      }
    })

  const call = (c: XCall): Effect.Effect<HttpReply, Throttled | NoAnswer> =>
    Effect.gen(function* () {
      const keys = keysOf(c.limit, c.userId)
      const closed = yield* gate.waitFor(keys)
      if (closed > 0)
        return yield* new Throttled({
          message: `X's rate limit for this account is used up; Herald waits ${Math.ceil(closed / 1000)} s for its reset before calling X again.`,
          retryAfterMs: closed
        })
      const headers: Record<string, string> = { authorization: `Bearer ${c.accessToken}` }
      if (c.json !== undefined) headers["content-type"] = "application/json"
      const reply = yield* send({
        method: c.method,
        url: c.url,
        headers,
        timeoutMs: c.timeoutMs ?? CALL_TIMEOUT_MS,
        ...(c.idempotent === true ? { idempotent: true } : {}),
        ...(c.json !== undefined ? { body: JSON.stringify(c.json) } : c.form !== undefined ? { body: c.form } : {})
      })
      yield* learn(c, reply)
      if (reply.status === 429) {
        const wait = Math.max(1, yield* gate.waitFor(keys))
        return yield* new Throttled({
          message: `X is rate limiting this account (${xMessage(reply)}); Herald waits ${Math.ceil(wait / 1000)} s for the reset.`,
          retryAfterMs: wait
        })
      }
      return reply
    })

  /** Whether posting is open now for the account (checked before uploading media for a post). */
  const postingWait = (userId: string) => gate.waitFor(keysOf("tweets", userId))

  return { call, postingWait }
}
