import { Clock, Effect, Option, Schema } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, isSuccess, type NoAnswer, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { PinterestConfig } from "./config.ts"
import { noAnswerError, publishErrorOf, unreadable } from "./errors.ts"

/** Pinterest API v5 endpoints Herald uses (user account, boards, pins, media), their answers decoded. */

const Account = Schema.Struct({
  id: Schema.optional(Schema.String),
  username: Schema.String,
  business_name: Schema.optional(Schema.NullOr(Schema.String)),
  profile_image: Schema.optional(Schema.NullOr(Schema.String))
})
const Board = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.optional(Schema.NullOr(Schema.String)),
  privacy: Schema.optional(Schema.String)
})
export type PinterestBoard = typeof Board.Type
const Boards = Schema.Struct({ items: Schema.Array(Board), bookmark: Schema.optional(Schema.NullOr(Schema.String)) })
const Pin = Schema.Struct({ id: Schema.String })
const Pins = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      created_at: Schema.optional(Schema.String),
      title: Schema.optional(Schema.NullOr(Schema.String)),
      description: Schema.optional(Schema.NullOr(Schema.String)),
      link: Schema.optional(Schema.NullOr(Schema.String))
    })
  )
})
export type PinsPage = typeof Pins.Type
const MediaUpload = Schema.Struct({
  media_id: Schema.String,
  upload_url: Schema.String,
  upload_parameters: Schema.Record(Schema.String, Schema.String)
})
const MediaStatus = Schema.Struct({ media_id: Schema.String, status: Schema.String })

const decode = decodeReply
const decodeAccount = decode(Account)
const decodeBoards = decode(Boards)
const decodePin = decode(Pin)
const decodePins = decode(Pins)
const decodeMediaUpload = decode(MediaUpload)
const decodeMediaStatus = decode(MediaStatus)

/** The account a call acts for and its fresh token. */
export interface Acting {
  readonly user: string
  readonly accessToken: string
}

/** What a pin create came to. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly id: string }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

export const CALL_TIMEOUT_MS = 30_000
/** A pin carries its images as base64: a larger body. */
const PIN_TIMEOUT_MS = 120_000
const UPLOAD_TIMEOUT_MS = 600_000

export type PinterestApi = ReturnType<typeof makePinterestApi>

/**
 * Pinterest's API, honouring its per-minute limits: a 429 closes the account's calls until the
 * Retry-After (or a minute), and later calls wait without reaching Pinterest.
 */
export const makePinterestApi = (config: PinterestConfig, gate: RateGate) => {
  const v5 = (path: string) => `${config.apiUrl}/v5${path}`

  const call = (
    acting: { readonly user: string | null; readonly accessToken: string },
    method: "GET" | "POST" | "DELETE",
    path: string,
    json?: unknown,
    timeoutMs = CALL_TIMEOUT_MS
  ) =>
    Effect.gen(function* () {
      const closed = acting.user === null ? 0 : yield* gate.waitFor([acting.user])
      if (closed > 0)
        return yield* Effect.fail(
          PublishError.rateLimited({
            message: `Pinterest's limit for this account is used up; Herald waits ${Math.ceil(closed / 1000)} s.`,
            retryAfterMs: closed
          })
        )
      const reply = yield* send({
        method,
        url: v5(path),
        timeoutMs,
        headers: {
          authorization: `Bearer ${acting.accessToken}`,
          ...(json === undefined ? {} : { "content-type": "application/json" })
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) })
      }).pipe(Effect.mapError((e: NoAnswer) => noAnswerError(e)))
      const now = yield* Clock.currentTimeMillis
      if (reply.status === 429 && acting.user !== null)
        yield* gate.closeUntil(acting.user, now + (publishErrorOf(reply, now).retryAfterMs ?? 60_000))
      return { reply, now }
    })

  const expect = <A>(
    c: Effect.Effect<{ reply: HttpReply; now: number }, PublishError>,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ) =>
    Effect.flatMap(c, ({ reply, now }) =>
      isSuccess(reply)
        ? Option.match(read(reply), { onNone: () => Effect.fail(unreadable(what)), onSome: Effect.succeed })
        : Effect.fail(publishErrorOf(reply, now))
    )

  return {
    userAccount: (accessToken: string) =>
      expect(call({ user: null, accessToken }, "GET", "/user_account"), decodeAccount, "the account's profile"),

    /** The account's boards, every page of them (Pinterest's bookmark paging). */
    boards: (acting: { readonly user: string | null; readonly accessToken: string }) =>
      Effect.gen(function* () {
        const all: Array<PinterestBoard> = []
        let bookmark: string | null | undefined = null
        do {
          const query = new URLSearchParams({ page_size: "100", ...(bookmark ? { bookmark } : {}) })
          const page: typeof Boards.Type = yield* expect(
            call(acting, "GET", `/boards?${query}`),
            decodeBoards,
            "the account's boards"
          )
          all.push(...page.items)
          bookmark = page.bookmark
        } while (bookmark)
        return all
      }),

    /** POST /pins. No answer, a 5xx or an unreadable 2xx leave the outcome unknown: Pinterest may have made the pin. */
    createPin: (acting: Acting, pin: unknown): Effect.Effect<CreateResult> =>
      call(acting, "POST", "/pins", pin, PIN_TIMEOUT_MS).pipe(
        Effect.map(({ reply, now }): CreateResult => {
          if (isSuccess(reply))
            return Option.match(decodePin(reply), {
              onNone: () => ({ _tag: "Unknown", why: "Pinterest accepted the pin but its answer could not be read." }),
              onSome: (p) => ({ _tag: "Created", id: p.id })
            })
          if (reply.status >= 500) return { _tag: "Unknown", why: `Pinterest answered ${reply.status} to the pin.` }
          return { _tag: "Refused", error: publishErrorOf(reply, now) }
        }),
        Effect.catch(
          (e): Effect.Effect<CreateResult> =>
            Effect.succeed(
              e.code === "upstream_unavailable" ? { _tag: "Unknown", why: e.message } : { _tag: "Refused", error: e }
            )
        )
      ),

    /** DELETE /v5/pins/{pin_id}: 204; a pin Pinterest no longer has (404) is already removed. */
    deletePin: (acting: Acting, pinId: string): Effect.Effect<void, PublishError> =>
      Effect.flatMap(call(acting, "DELETE", `/pins/${encodeURIComponent(pinId)}`), ({ reply, now }) =>
        isSuccess(reply) || reply.status === 404 ? Effect.void : Effect.fail(publishErrorOf(reply, now))
      ),

    /** The board's latest pins (recovery). */
    boardPins: (acting: Acting, boardId: string) =>
      expect(
        call(acting, "GET", `/boards/${encodeURIComponent(boardId)}/pins?page_size=25`),
        decodePins,
        "the board's pins"
      ),

    /** Registers a video upload: where to POST it and the form fields to send first. */
    registerVideo: (acting: Acting) =>
      expect(call(acting, "POST", "/media", { media_type: "video" }), decodeMediaUpload, "a video upload's start"),

    /** The video to the upload URL (S3): every upload parameter, then the file. */
    uploadVideo: (uploadUrl: string, parameters: Readonly<Record<string, string>>, file: Blob) =>
      Effect.gen(function* () {
        const form = new FormData()
        for (const [name, value] of Object.entries(parameters)) form.set(name, value)
        form.set("file", file)
        const reply = yield* send({ method: "POST", url: uploadUrl, body: form, timeoutMs: UPLOAD_TIMEOUT_MS }).pipe(
          Effect.mapError(noAnswerError)
        )
        if (!isSuccess(reply))
          return yield* Effect.fail(
            reply.status >= 500
              ? PublishError.unavailable({
                  message: `Pinterest's upload store could not take the video (HTTP ${reply.status}).`
                })
              : PublishError.refused({
                  code: "upstream_rejected",
                  message: `Pinterest's upload store refused the video (HTTP ${reply.status}).`
                })
          )
      }),

    /** Where Pinterest's processing of a video is: registered, processing, succeeded or failed. */
    mediaStatus: (acting: Acting, mediaId: string) =>
      expect(call(acting, "GET", `/media/${encodeURIComponent(mediaId)}`), decodeMediaStatus, "a video's status").pipe(
        Effect.map((m) => m.status)
      )
  }
}
