import { Clock, Effect, Schema } from "effect"
import { type HttpReply, type HttpRequest, type NoAnswer, send } from "../shared/http.ts"
import { DAILY_REASONS, reasonOf, SHORT_REASONS, SHORT_WAIT_MS, youtubeMessage } from "./errors.ts"
import type { Quota } from "./quota.ts"

/** YouTube's quota (the project's day, a channel's uploads) or a short throttle stops this call for `retryAfterMs`. */
export class OutOfQuota extends Schema.TaggedError<OutOfQuota>()("OutOfQuota", {
  retryAfterMs: Schema.Number,
  said: Schema.String
}) {}

export interface YouTubeCall {
  /** The channel the call acts for (its upload limit); null before it is known. */
  readonly channel: string | null
  readonly accessToken: string
  readonly method: HttpRequest["method"]
  readonly url: string
  /** Which quota bucket the call draws on: an upload (videos.insert), units, or none (the bytes of an upload already counted). */
  readonly bucket: "upload" | "units" | "none"
  readonly cost?: number
  readonly json?: unknown
  readonly bytes?: Uint8Array<ArrayBuffer>
  readonly headers?: Readonly<Record<string, string>>
  readonly timeoutMs?: number
}

export const CALL_TIMEOUT_MS = 30_000
/** A chunk is up to 8 MiB by default: slow links get longer. */
export const CHUNK_TIMEOUT_MS = 300_000

export type YouTubeClient = ReturnType<typeof makeYouTubeClient>

/**
 * Calls YouTube with the account's token, counting each call against the project's daily quota: a
 * bucket that is used up (by count, or because YouTube said quotaExceeded / uploadLimitExceeded) is
 * not called again before midnight Pacific, and a short throttle waits a minute.
 */
export const makeYouTubeClient = (quota: Quota) => {
  const call = (c: YouTubeCall): Effect.Effect<HttpReply, OutOfQuota | NoAnswer> =>
    Effect.gen(function* () {
      if (c.bucket !== "none") {
        const closed = yield* quota.waitFor(c.bucket, c.channel)
        if (closed > 0)
          return yield* new OutOfQuota({
            retryAfterMs: closed,
            said: c.bucket === "upload" ? "the day's uploads are used up" : "the day's units are used up"
          })
        yield* quota.spend(c.bucket, c.cost ?? 1)
      }
      const headers: Record<string, string> = { authorization: `Bearer ${c.accessToken}`, ...c.headers }
      if (c.json !== undefined) headers["content-type"] = "application/json; charset=UTF-8"
      const reply = yield* send({
        method: c.method,
        url: c.url,
        headers,
        timeoutMs: c.timeoutMs ?? CALL_TIMEOUT_MS,
        ...(c.json !== undefined ? { body: JSON.stringify(c.json) } : c.bytes !== undefined ? { body: c.bytes } : {})
      })
      const reason = reply.status === 403 || reply.status === 429 ? reasonOf(reply) : null
      if (reason !== null && DAILY_REASONS.has(reason)) {
        const bucket =
          reason === "uploadLimitExceeded" && c.channel !== null
            ? { channelUploads: c.channel }
            : c.bucket === "upload"
              ? ("uploads" as const)
              : ("units" as const)
        const until = yield* quota.exhausted(bucket)
        return yield* new OutOfQuota({
          retryAfterMs: until - (yield* Clock.currentTimeMillis),
          said: youtubeMessage(reply)
        })
      }
      if (reason !== null && SHORT_REASONS.has(reason))
        return yield* new OutOfQuota({ retryAfterMs: SHORT_WAIT_MS, said: youtubeMessage(reply) })
      return reply
    })
  return { call }
}
