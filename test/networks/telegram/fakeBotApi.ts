import { createHash } from "node:crypto"
import { listenLocally, type RecordedRequest, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local stand-in for the Telegram Bot API, written from https://core.telegram.org/bots/api:
 * `POST /bot<token>/<method>` with JSON or multipart/form-data parameters, answered
 * `{ok: true, result}` or `{ok: false, error_code, description, parameters?}`. It keeps bots, chats
 * (with each bot's ChatMember), and every message sent; its faults are the API's own: 401 for an
 * unknown or revoked token, 403 for a bot kicked from a chat, 400 with a description for a bad call,
 * 429 with `parameters.retry_after` (scripted).
 */

export interface FakeBot {
  readonly id: number
  readonly username: string
  readonly first_name: string
}

export interface FakeChat {
  readonly id: number
  readonly type: "private" | "group" | "supergroup" | "channel"
  readonly title?: string
  readonly username?: string
  /** A basic group upgraded to a supergroup: its new id, which every send to the old one is told. */
  migratedTo?: number
  /** Each bot's standing, by bot id (absent: not a member, "left"). */
  readonly members: Map<number, { status: string; can_post_messages?: boolean }>
}

export interface SentFile {
  readonly field: string
  readonly filename: string
  readonly type: string
  readonly bytes: number
  readonly sha256: string
}

export interface SentMessage {
  readonly message_id: number
  readonly chatId: number
  readonly method: string
  readonly text?: string
  readonly caption?: string
  readonly replyTo: number | null
  readonly files: ReadonlyArray<SentFile>
  /** sendMediaGroup: this message's item (photo/video) of the album. */
  readonly albumType?: string
  readonly mediaGroupId?: string
  readonly poll?: { readonly question: string; readonly options: ReadonlyArray<string>; readonly openPeriod?: number }
}

type Params = Record<string, unknown>

class ApiError extends Error {
  readonly status: number
  readonly description: string
  readonly parameters: Record<string, unknown> | undefined
  constructor(status: number, description: string, parameters?: Record<string, unknown>) {
    super(description)
    this.status = status
    this.description = description
    this.parameters = parameters
  }
}

const badRequest = (what: string) => new ApiError(400, `Bad Request: ${what}`)

export const startFakeBotApi = async () => {
  const log = requestLog<Params>()
  const bots = new Map<string, FakeBot>()
  const chats: Array<FakeChat> = []
  const messages: Array<SentMessage> = []
  let nextMessage = 100
  let nextGroup = 1

  const chatOf = (chatId: unknown): FakeChat => {
    const text = String(chatId ?? "")
    const chat = text.startsWith("@")
      ? chats.find((c) => c.username !== undefined && `@${c.username}`.toLowerCase() === text.toLowerCase())
      : chats.find((c) => String(c.id) === text)
    if (chat === undefined) throw badRequest("chat not found")
    return chat
  }

  /** The chat, for a bot that may send to it: a kicked bot gets 403, one that may not post 400. */
  const postable = (bot: FakeBot, chatId: unknown) => {
    const chat = chatOf(chatId)
    if (chat.migratedTo !== undefined)
      throw new ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat", {
        migrate_to_chat_id: chat.migratedTo
      })
    const member = chat.members.get(bot.id)
    if (member === undefined || member.status === "kicked" || member.status === "left")
      throw new ApiError(
        403,
        `Forbidden: bot was kicked from the ${chat.type === "channel" ? "channel" : "supergroup"} chat`
      )
    if (chat.type === "channel" && !(member.status === "administrator" && member.can_post_messages === true))
      throw badRequest("need administrator rights in the channel chat")
    return chat
  }

  const replyOf = (chat: FakeChat, params: Params): number | null => {
    const reply = params.reply_parameters as { message_id?: unknown } | undefined
    if (reply === undefined) return null
    const id = Number(reply.message_id)
    if (!messages.some((m) => m.chatId === chat.id && m.message_id === id))
      throw badRequest("message to be replied not found")
    return id
  }

  const captionOf = (params: Params) => {
    const caption = params.caption === undefined ? undefined : String(params.caption)
    if (caption !== undefined && caption.length > 1024) throw badRequest("message caption is too long")
    return caption
  }

  const fileOf = (files: Map<string, SentFile>, field: string, value: unknown): SentFile => {
    // A file is a multipart part, or attach://<name> naming one.
    const name = typeof value === "string" && value.startsWith("attach://") ? value.slice(9) : field
    const file = files.get(name)
    if (file === undefined) throw badRequest(`there is no ${field} in the request`)
    return file
  }

  const messageOf = (m: SentMessage, chat: FakeChat) => ({
    message_id: m.message_id,
    date: Math.floor(Date.now() / 1000),
    chat: {
      id: chat.id,
      type: chat.type,
      ...(chat.title ? { title: chat.title } : {}),
      ...(chat.username ? { username: chat.username } : {})
    },
    ...(m.text === undefined ? {} : { text: m.text }),
    ...(m.caption === undefined ? {} : { caption: m.caption }),
    ...(m.mediaGroupId === undefined ? {} : { media_group_id: m.mediaGroupId })
  })

  const keep = (chat: FakeChat, fields: Omit<SentMessage, "message_id" | "chatId">) => {
    const m: SentMessage = { message_id: nextMessage++, chatId: chat.id, ...fields }
    messages.push(m)
    return messageOf(m, chat)
  }

  const methods: Record<string, (bot: FakeBot, params: Params, files: Map<string, SentFile>) => unknown> = {
    getMe: (bot) => ({ id: bot.id, is_bot: true, first_name: bot.first_name, username: bot.username }),
    getChat: (bot, params) => {
      const chat = chatOf(params.chat_id)
      if (!chat.members.has(bot.id)) throw badRequest("chat not found")
      return {
        id: chat.id,
        type: chat.type,
        ...(chat.title ? { title: chat.title } : {}),
        ...(chat.username ? { username: chat.username } : {}),
        accent_color_id: 0,
        max_reaction_count: 11
      }
    },
    getChatMember: (bot, params) => {
      const chat = chatOf(params.chat_id)
      const member = chat.members.get(Number(params.user_id)) ?? { status: "left" }
      if (!chat.members.has(bot.id)) throw badRequest("chat not found")
      return { user: { id: Number(params.user_id), is_bot: true, first_name: bot.first_name }, ...member }
    },
    sendMessage: (bot, params) => {
      const chat = postable(bot, params.chat_id)
      const text = String(params.text ?? "")
      if (text.trim() === "") throw badRequest("message text is empty")
      if (text.length > 4096) throw badRequest("message is too long")
      return keep(chat, { method: "sendMessage", text, replyTo: replyOf(chat, params), files: [] })
    },
    sendPhoto: (bot, params, files) => {
      const chat = postable(bot, params.chat_id)
      const file = fileOf(files, "photo", params.photo)
      const caption = captionOf(params)
      return keep(chat, {
        method: "sendPhoto",
        ...(caption === undefined ? {} : { caption }),
        replyTo: replyOf(chat, params),
        files: [file]
      })
    },
    sendVideo: (bot, params, files) => {
      const chat = postable(bot, params.chat_id)
      const file = fileOf(files, "video", params.video)
      const caption = captionOf(params)
      return keep(chat, {
        method: "sendVideo",
        ...(caption === undefined ? {} : { caption }),
        replyTo: replyOf(chat, params),
        files: [file]
      })
    },
    sendAnimation: (bot, params, files) => {
      const chat = postable(bot, params.chat_id)
      const file = fileOf(files, "animation", params.animation)
      const caption = captionOf(params)
      return keep(chat, {
        method: "sendAnimation",
        ...(caption === undefined ? {} : { caption }),
        replyTo: replyOf(chat, params),
        files: [file]
      })
    },
    sendMediaGroup: (bot, params, files) => {
      const chat = postable(bot, params.chat_id)
      const media = params.media as ReadonlyArray<{ type: string; media: string; caption?: string }>
      if (!Array.isArray(media) || media.length < 2 || media.length > 10)
        throw badRequest("wrong number of media: 2-10 are needed")
      const replyTo = replyOf(chat, params)
      const group = String(nextGroup++)
      return media.map((item) => {
        if (item.type !== "photo" && item.type !== "video") throw badRequest(`unsupported media type "${item.type}"`)
        const caption = captionOf(item as Params)
        return keep(chat, {
          method: "sendMediaGroup",
          albumType: item.type,
          mediaGroupId: group,
          ...(caption === undefined ? {} : { caption }),
          replyTo,
          files: [fileOf(files, item.type, item.media)]
        })
      })
    },
    sendPoll: (bot, params) => {
      const chat = postable(bot, params.chat_id)
      const question = String(params.question ?? "")
      if (question.length < 1 || question.length > 300) throw badRequest("poll question length must not exceed 300")
      const options = (params.options as ReadonlyArray<{ text: string }> | undefined) ?? []
      if (options.length < 2) throw badRequest("poll must have at least 2 option")
      if (options.length > 10) throw badRequest("poll can't have more than 10 options")
      if (chat.type === "channel" && params.is_anonymous === false)
        throw badRequest("non-anonymous polls can't be sent to channel chats")
      const openPeriod = params.open_period === undefined ? undefined : Number(params.open_period)
      if (openPeriod !== undefined && (openPeriod < 5 || openPeriod > 600))
        throw badRequest("wrong open period specified")
      return keep(chat, {
        method: "sendPoll",
        replyTo: replyOf(chat, params),
        files: [],
        poll: { question, options: options.map((o) => o.text), ...(openPeriod === undefined ? {} : { openPeriod }) }
      })
    }
  }

  /** The call's parameters (JSON, or multipart fields with objects as JSON) and its files. */
  const read = async (req: import("node:http").IncomingMessage, url: URL) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks)
    const type = req.headers["content-type"] ?? ""
    const files = new Map<string, SentFile>()
    if (type.startsWith("application/json")) return { params: JSON.parse(raw.toString() || "{}") as Params, files }
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request(url, { method: "POST", headers: { "content-type": type }, body: raw }).formData()
      const params: Params = {}
      for (const [name, value] of form.entries()) {
        if (typeof value === "string") {
          params[name] = /^[[{]/.test(value) ? JSON.parse(value) : value
        } else {
          const bytes = Buffer.from(await value.arrayBuffer())
          files.set(name, {
            field: name,
            filename: value.name,
            type: value.type,
            bytes: bytes.length,
            sha256: createHash("sha256").update(bytes).digest("hex")
          })
        }
      }
      return { params, files }
    }
    return { params: Object.fromEntries(url.searchParams) as Params, files }
  }

  const { origin, close } = await listenLocally(
    async (req, res) => {
      const url = new URL(req.url ?? "/", "http://fake")
      const { params, files } = await read(req, url)
      const scripted = log.record(req, url, { ...params, files: [...files.values()] })
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname)
      if (scripted !== null) {
        if (scripted.dropAnswer === true) {
          // The work is done, the answer lost.
          try {
            const bot = match === null ? undefined : bots.get(match[1]!)
            if (bot !== undefined) methods[match![2]!]?.(bot, params, files)
          } catch {}
          return void req.socket.destroy()
        }
        return sendJson(res, scripted.status, scripted.body, scripted.headers)
      }
      if (match === null) return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" })
      const bot = bots.get(match[1]!)
      if (bot === undefined) return sendJson(res, 401, { ok: false, error_code: 401, description: "Unauthorized" })
      const method = methods[match[2]!]
      if (method === undefined)
        return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found: method not found" })
      try {
        sendJson(res, 200, { ok: true, result: method(bot, params, files) })
      } catch (e) {
        if (!(e instanceof ApiError)) throw e
        sendJson(res, e.status, {
          ok: false,
          error_code: e.status,
          description: e.description,
          ...(e.parameters ? { parameters: e.parameters } : {})
        })
      }
    },
    (res, e) => sendJson(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(e)}` })
  )

  return {
    origin,
    log,
    bots,
    chats,
    messages,
    /** A bot @BotFather made: its token. */
    addBot: (id: number, username: string) => {
      const token = `${id}:AAH${createHash("sha256").update(username).digest("base64url").slice(0, 32)}`
      bots.set(token, { id, username, first_name: username })
      return token
    },
    addChat: (chat: Omit<FakeChat, "members">) => {
      const made: FakeChat = { ...chat, members: new Map() }
      chats.push(made)
      return made
    },
    /** The bot in the chat, as an administrator that may post (or as `status`). */
    join: (
      chat: FakeChat,
      botToken: string,
      member: { status: string; can_post_messages?: boolean } = { status: "administrator", can_post_messages: true }
    ) => chat.members.set(bots.get(botToken)!.id, member),
    /** @BotFather's /revoke: the old token answers 401. */
    revoke: (token: string) => bots.delete(token),
    kick: (chat: FakeChat, token: string) => chat.members.set(bots.get(token)!.id, { status: "kicked" }),
    /** A 429 as the Bot API gives it, for the next call of `method`. */
    floodWait: (method: string, seconds: number) =>
      log.script("POST", new RegExp(`/${method}$`), {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${seconds}`,
          parameters: { retry_after: seconds }
        }
      }),
    calls: (method: string): ReadonlyArray<RecordedRequest<Params>> =>
      log.requests.filter((r) => r.path.endsWith(`/${method}`)),
    close
  }
}

export type FakeBotApi = Awaited<ReturnType<typeof startFakeBotApi>>
