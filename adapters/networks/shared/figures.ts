import { Clock, Effect } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import type { RawFigures } from "../../../domain/metrics.ts"
import { type HttpReply, type HttpRequest, isSuccess, jsonOf, retryAfterMs, send } from "./http.ts"
import type { RateGate } from "./rateGate.ts"

/** A throttled read whose answer names no reset waits this long. */
const UNNAMED_RESET_MS = 60_000

/** A read of figures: the JSON the network answered, or its word that this account's figures are not offered. */
export type FiguresReply =
  | { readonly _tag: "Json"; readonly body: unknown }
  | { readonly _tag: "NotOffered"; readonly reason: string }

export interface FiguresCall {
  /** The network's name, for messages. */
  readonly network: string
  /** Where the network's limits for this call are kept: closed keys are not called. */
  readonly gate: RateGate
  readonly keys: ReadonlyArray<string>
  readonly request: HttpRequest
  /** The network's refusal of this account's figures (a scope, an access tier), as a reason for the person; null otherwise. */
  readonly notOffered: (reply: HttpReply, body: unknown) => string | null
  /** When the network says its window resets (epoch ms), beyond Retry-After; undefined when it does not. */
  readonly resetAt?: ((reply: HttpReply) => number | undefined) | undefined
}

/**
 * One read of figures, within the network's limits: a key the network closed (a 429, a quota) is not
 * called until its reset; 401 asks for renewed credentials; a refusal of the account's figures is
 * NotOffered, never an error to retry in a loop.
 */
export const callForFigures = (call: FiguresCall): Effect.Effect<FiguresReply, PublishError> =>
  Effect.gen(function* () {
    const closed = yield* call.gate.waitFor(call.keys)
    if (closed > 0)
      return yield* PublishError.rateLimited({
        message: `${call.network}'s limit for reading figures is used up; Herald waits ${Math.ceil(closed / 1000)} s.`,
        retryAfterMs: closed
      })
    const reply = yield* send(call.request).pipe(
      Effect.mapError((e) => PublishError.unavailable({ message: `${call.network} did not answer: ${e.message}` }))
    )
    const body = jsonOf(reply)
    if (isSuccess(reply)) return { _tag: "Json" as const, body }
    const reason = call.notOffered(reply, body)
    if (reason !== null) return { _tag: "NotOffered" as const, reason }
    const words = reply.text.slice(0, 300)
    if (reply.status === 429) {
      const now = yield* Clock.currentTimeMillis
      const named = call.resetAt?.(reply)
      const until =
        named !== undefined && named > now ? named : now + (retryAfterMs(reply.headers, now) ?? UNNAMED_RESET_MS)
      for (const key of call.keys) yield* call.gate.closeUntil(key, until)
      return yield* PublishError.rateLimited({
        message: `${call.network} is throttling reads of figures: ${words}`,
        retryAfterMs: until - now
      })
    }
    if (reply.status === 401)
      return yield* PublishError.unauthorized({ message: `${call.network} refused the account's access token.` })
    if (reply.status >= 500)
      return yield* PublishError.unavailable({ message: `${call.network} is unavailable: HTTP ${reply.status}` })
    return yield* PublishError.refused({
      code: "upstream_rejected",
      message: `${call.network} refused the read of figures (HTTP ${reply.status}): ${words}`
    })
  })

/** The numeric fields `names` of an answer's object, under the network's names (absent ones left out). */
export const pick = (value: unknown, names: ReadonlyArray<string>): Record<string, number> => {
  const out: Record<string, number> = {}
  if (value === null || typeof value !== "object") return out
  for (const name of names) {
    const v = (value as Record<string, unknown>)[name]
    if (typeof v === "number" && Number.isFinite(v)) out[name] = v
  }
  return out
}

export type { RawFigures }
