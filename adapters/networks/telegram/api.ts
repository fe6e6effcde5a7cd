import { Effect } from "effect"
import { baseUrl, type HttpReply, jsonOf, type NoAnswer, send } from "../shared/http.ts"

/** A Bot API call's time: API calls answer fast; uploads carry the file. */
export const CALL_TIMEOUT_MS = 30_000
export const UPLOAD_TIMEOUT_MS = 300_000

/**
 * One Bot API answer (https://core.telegram.org/bots/api#making-requests): `ok` with `result`, or
 * `error_code` (its HTTP status) with Telegram's `description` and, for a 429, `parameters.retry_after`.
 */
export type BotAnswer<A> =
  | { readonly _tag: "Ok"; readonly result: A }
  | {
      readonly _tag: "Failed"
      readonly status: number
      readonly description: string
      /** Seconds to wait, on a 429 (flood control). */
      readonly retryAfter: number | null
      /** The group's new id, when it became a supergroup (its old id no longer takes messages). */
      readonly migrateTo: number | null
    }

interface Envelope {
  readonly ok?: unknown
  readonly result?: unknown
  readonly error_code?: unknown
  readonly description?: unknown
  readonly parameters?: { readonly retry_after?: unknown; readonly migrate_to_chat_id?: unknown } | undefined
}

const answerOf = <A>(reply: HttpReply): BotAnswer<A> => {
  const body = jsonOf(reply) as Envelope | undefined
  if (body?.ok === true && reply.status >= 200 && reply.status < 300) return { _tag: "Ok", result: body.result as A }
  const status = typeof body?.error_code === "number" ? body.error_code : reply.status
  const retryAfter = body?.parameters?.retry_after
  const migrateTo = body?.parameters?.migrate_to_chat_id
  return {
    _tag: "Failed",
    status: status >= 200 && status < 300 ? 502 : status,
    description:
      typeof body?.description === "string" && body.description.trim() !== ""
        ? body.description.trim()
        : `The Bot API answered HTTP ${reply.status}.`,
    retryAfter: typeof retryAfter === "number" && retryAfter >= 0 ? retryAfter : null,
    migrateTo: typeof migrateTo === "number" ? migrateTo : null
  }
}

/** A chat as getChat gives it (ChatFullInfo): its id, kind, title and public username. */
export interface Chat {
  readonly id: number
  readonly type: "private" | "group" | "supergroup" | "channel"
  readonly title?: string
  readonly username?: string
  readonly first_name?: string
}

/** A bot as getMe gives it (User). */
export interface BotUser {
  readonly id: number
  readonly is_bot: boolean
  readonly first_name: string
  readonly username?: string
}

/** The bot's standing in the chat (ChatMember): an administrator may carry can_post_messages (channels). */
export interface ChatMember {
  readonly status: "creator" | "administrator" | "member" | "restricted" | "left" | "kicked"
  readonly can_post_messages?: boolean
}

/** A sent message (Message): only what Herald keeps of it. */
export interface Message {
  readonly message_id: number
  readonly chat: { readonly id: number; readonly username?: string }
}

/** A file sent with a call, as a multipart part. */
export interface Upload {
  readonly field: string
  readonly filename: string
  readonly mimeType: string
  readonly bytes: Uint8Array<ArrayBuffer>
}

export type BotApi = ReturnType<typeof makeBotApi>

/**
 * The Bot API at `apiUrl` (the operator's TELEGRAM_API_URL), every call through the one outbound
 * client. The token is part of each call's path (`/bot<token>/<method>`); no message Herald makes
 * quotes a URL, so it never reaches a log or a person.
 */
export const makeBotApi = (apiUrl: string) => {
  const root = baseUrl(apiUrl)

  /** A call with JSON parameters. */
  const call = <A>(
    token: string,
    method: string,
    params: Record<string, unknown>
  ): Effect.Effect<BotAnswer<A>, NoAnswer> =>
    Effect.map(
      send({
        method: "POST",
        url: `${root}/bot${token}/${method}`,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(params),
        timeoutMs: CALL_TIMEOUT_MS
      }),
      answerOf<A>
    )

  /** A call with files (multipart/form-data): other parameters as fields, objects as JSON. */
  const upload = <A>(
    token: string,
    method: string,
    params: Record<string, unknown>,
    files: ReadonlyArray<Upload>
  ): Effect.Effect<BotAnswer<A>, NoAnswer> =>
    Effect.suspend(() => {
      const form = new FormData()
      for (const [name, value] of Object.entries(params))
        if (value !== undefined) form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value))
      for (const f of files) form.append(f.field, new Blob([f.bytes], { type: f.mimeType }), f.filename)
      return Effect.map(
        send({
          method: "POST",
          url: `${root}/bot${token}/${method}`,
          headers: { accept: "application/json" },
          body: form,
          timeoutMs: UPLOAD_TIMEOUT_MS
        }),
        answerOf<A>
      )
    })

  return {
    getMe: (token: string) => call<BotUser>(token, "getMe", {}),
    getChat: (token: string, chatId: string) => call<Chat>(token, "getChat", { chat_id: chatId }),
    getChatMember: (token: string, chatId: string, userId: number) =>
      call<ChatMember>(token, "getChatMember", { chat_id: chatId, user_id: userId }),
    call,
    upload
  }
}
