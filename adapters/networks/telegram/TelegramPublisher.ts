import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import {
  type AdvisedPost,
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import type { Media } from "../../../domain/media.ts"
import { networkRules } from "../../../domain/networkRules.ts"
import type { NoAnswer } from "../shared/http.ts"
import { readAll } from "../shared/media.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { BotAnswer, BotApi, Message, Upload } from "./api.ts"
import { lostAnswer, publishErrorOf } from "./errors.ts"
import { decodeHandle, encodeHandle, sending, type TelegramHandle } from "./handle.ts"

const rules = networkRules.telegram
/** sendMessage's text (the rules row's 4096) and a media message's caption (0-1024), plain text here. */
export const TEXT_LIMIT = rules.textLimit
export const CAPTION_LIMIT = 1024
/** sendMediaGroup takes 2-10 photos and videos, mixed. */
export const ALBUM_MAX = rules.maxImages
/** Bot API uploads: photos up to 10 MB (the rules row's), other files up to 50 MB. */
export const PHOTO_MAX_BYTES = rules.imageMaxBytes ?? 10 * 1024 * 1024
export const FILE_MAX_BYTES = 50 * 1024 * 1024

/** How soon to send a poll again whose text is out, when Telegram could not take it and named no wait. */
const POLL_RETRY_MS = 30_000

/** Telegram counts a message's length in UTF-16 code units. */
const lengthOf = (text: string) => text.length

interface Acting {
  readonly token: string
  readonly chatId: string
}

const actingOf = (request: PublishRequest): Effect.Effect<Acting, PublishError> => {
  const c = request.credentials
  const chatId = c?.extra?.chatId
  return c === null || chatId === undefined || c.accessToken === ""
    ? Effect.fail(PublishError.revoked({ message: "The Telegram chat has no stored bot token; connect it again." }))
    : Effect.succeed({ token: c.accessToken, chatId })
}

/**
 * The message's public link: t.me/<username>/<id> for a public chat, t.me/c/<id>/<id> for a private
 * channel or supergroup (-100… ids; members only), none for a basic group.
 */
export const linkOf = (account: Account, messageId: number): string | null => {
  if (account.username.startsWith("@")) return `https://t.me/${account.username.slice(1)}/${messageId}`
  const internal = /^-100(\d+)$/.exec(account.externalId)?.[1]
  return internal === undefined ? null : `https://t.me/c/${internal}/${messageId}`
}

/** What the Bot API would refuse in this message, found before anything is sent (the dry run says the same). */
export const problemsOf = (content: string, media: ReadonlyArray<Media>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (lengthOf(content) > TEXT_LIMIT)
    problems.push(
      `Telegram takes messages of up to ${TEXT_LIMIT} characters, counted in UTF-16 units (an emoji may count 2); this one has ${lengthOf(content)}.`
    )
  if (media.length > 0 && lengthOf(content) > CAPTION_LIMIT)
    problems.push(
      `Telegram takes a caption of up to ${CAPTION_LIMIT} characters with photos or videos; this text has ${lengthOf(content)}.`
    )
  if (media.length > ALBUM_MAX) problems.push(`Telegram takes albums of up to ${ALBUM_MAX} photos and videos.`)
  if (media.length > 1 && media.some((m) => m.mimeType === "image/gif"))
    problems.push("Telegram does not take a GIF in an album: post it on its own.")
  for (const m of media)
    if (m.sizeBytes > (m.type === "image" && m.mimeType !== "image/gif" ? PHOTO_MAX_BYTES : FILE_MAX_BYTES))
      problems.push(
        `A bot uploads ${m.type === "image" ? "photos of up to 10 MB" : "files of up to 50 MB"}; ${m.filename} is larger.`
      )
  return problems
}

/** Which Bot API method and file field send one upload on its own. */
const singleOf = (m: Media) =>
  m.type === "video"
    ? { method: "sendVideo", field: "video" }
    : m.mimeType === "image/gif"
      ? { method: "sendAnimation", field: "animation" }
      : { method: "sendPhoto", field: "photo" }

/**
 * Posts to a Telegram channel or group as the person's bot: text (plain, no parse mode, so nothing needs
 * escaping), a photo, video or GIF with the text as its caption, albums of 2-10 (sendMediaGroup), polls
 * (sendPoll; with a question of its own, after the text as a reply to it), and threads and first comments
 * as replies (reply_parameters). Files go up as multipart uploads from Herald's blob store.
 */
export const make = (deps: {
  readonly api: BotApi
  readonly blobs: BlobStoreShape
  readonly gate: RateGate
}): Publisher => {
  /** The answer's message, or the failure in Herald's terms; no answer at all is an unknown outcome. */
  const sent = <A>(acting: Acting, effect: Effect.Effect<BotAnswer<A>, NoAnswer>, what: string) =>
    Effect.gen(function* () {
      // Flood control is per bot and chat: once Telegram names a wait, no call to the chat before it ends.
      const key = `${acting.token.split(":")[0]} ${acting.chatId}`
      const wait = yield* deps.gate.waitFor([key])
      if (wait > 0)
        return yield* Effect.fail(
          PublishError.rateLimited({
            message: `Telegram asked the bot to wait; Herald sends nothing to this chat for ${Math.ceil(wait / 1000)} s.`,
            retryAfterMs: wait
          })
        )
      const answer = yield* Effect.mapError(effect, (e) => lostAnswer(e, what))
      if (answer._tag === "Ok") return answer.result
      if (answer.status === 429 && answer.retryAfter !== null)
        yield* deps.gate.closeUntil(key, (yield* Clock.currentTimeMillis) + answer.retryAfter * 1000)
      return yield* Effect.fail(publishErrorOf(answer, what))
    })

  const replyOf = (request: PublishRequest, to?: number) => {
    const parent = to ?? (request.replyTo === null ? undefined : Number(request.replyTo.parentId))
    return parent === undefined || !Number.isSafeInteger(parent) ? {} : { reply_parameters: { message_id: parent } }
  }

  const fileOf = (m: Media, field: string): Effect.Effect<Upload, PublishError> =>
    Effect.map(readAll(deps.blobs, m.blobKey), (bytes) => ({
      field,
      filename: m.filename || field,
      mimeType: m.mimeType,
      bytes
    }))

  const text = (request: PublishRequest, acting: Acting, content: string) =>
    sent(
      acting,
      deps.api.call<Message>(acting.token, "sendMessage", {
        chat_id: acting.chatId,
        text: content,
        ...replyOf(request)
      }),
      "the message"
    )

  const single = (request: PublishRequest, acting: Acting, m: Media) =>
    Effect.gen(function* () {
      const { method, field } = singleOf(m)
      const file = yield* fileOf(m, field)
      const video =
        m.type === "video"
          ? {
              supports_streaming: true,
              ...(m.width === null ? {} : { width: m.width }),
              ...(m.height === null ? {} : { height: m.height }),
              ...(m.durationMs === null ? {} : { duration: Math.round(m.durationMs / 1000) })
            }
          : {}
      return yield* sent(
        acting,
        deps.api.upload<Message>(
          acting.token,
          method,
          {
            chat_id: acting.chatId,
            ...(request.content.trim() === "" ? {} : { caption: request.content }),
            ...video,
            ...replyOf(request)
          },
          [file]
        ),
        `the ${m.type}`
      )
    })

  const album = (request: PublishRequest, acting: Acting) =>
    Effect.gen(function* () {
      const files = yield* Effect.forEach(request.media, (m, i) => fileOf(m, `file${i}`))
      const media = request.media.map((m, i) => ({
        type: m.type === "video" ? "video" : "photo",
        media: `attach://file${i}`,
        // The album's caption is its first item's.
        ...(i === 0 && request.content.trim() !== "" ? { caption: request.content } : {}),
        ...(m.type === "video" ? { supports_streaming: true } : {})
      }))
      const messages = yield* sent(
        acting,
        deps.api.upload<ReadonlyArray<Message>>(
          acting.token,
          "sendMediaGroup",
          { chat_id: acting.chatId, media, ...replyOf(request) },
          files
        ),
        "the album"
      )
      // Sent, whatever the answer says: an album answered without its messages is posted, its id unknown.
      return (Array.isArray(messages) ? messages[0] : undefined) as Message
    })

  const poll = (request: PublishRequest, acting: Acting, question: string, replyTo?: number) => {
    const p = request.poll!
    return sent(
      acting,
      deps.api.call<Message>(acting.token, "sendPoll", {
        chat_id: acting.chatId,
        question,
        options: p.options.map((o) => ({ text: o })),
        // Channels take anonymous polls only; a bot's poll closes itself after 5-600 s.
        is_anonymous: true,
        open_period: Math.min(600, Math.max(5, p.durationMinutes * 60)),
        ...replyOf(request, replyTo)
      }),
      "the poll"
    )
  }

  /** The sent message's id: an ok answer that names none means it went out, unrecorded, so a person decides. */
  const idOf = (message: Message | undefined): Effect.Effect<number, PublishError> =>
    typeof message?.message_id === "number" && Number.isSafeInteger(message.message_id)
      ? Effect.succeed(message.message_id)
      : Effect.fail(
          PublishError.outcomeUnknown({ message: "Telegram said the message was sent but named no message id." })
        )

  const done = (request: PublishRequest, message: Message | undefined) =>
    Effect.map(idOf(message), (id): PublishOutcome => published(String(id), linkOf(request.account, id)))

  const fresh = (request: PublishRequest, acting: Acting, handle: TelegramHandle) =>
    Effect.gen(function* () {
      const problems = problemsOf(request.content, request.media)
      if (problems.length > 0)
        return yield* Effect.fail(PublishError.refused({ code: "upstream_rejected", message: problems.join(" ") }))
      if (request.poll !== null) {
        const own = request.poll.question?.trim() ?? ""
        if (own === "") return yield* done(request, yield* poll(request, acting, request.content))
        if (request.content.trim() === "") return yield* done(request, yield* poll(request, acting, own))
        // The text first, then the poll as its reply, from a checkpoint that says the text is out.
        const textId = yield* idOf(yield* text(request, acting, request.content))
        return {
          _tag: "Processing",
          handle: encodeHandle({ v: 1, stage: "poll", startedAt: handle.startedAt, textId }),
          checkAfterMs: 0
        } satisfies PublishOutcome
      }
      if (request.media.length === 0) return yield* done(request, yield* text(request, acting, request.content))
      if (request.media.length === 1) return yield* done(request, yield* single(request, acting, request.media[0]!))
      return yield* done(request, yield* album(request, acting))
    })

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(decodeHandle(handleText), () => sending(now))
      if (handle.stage === "poll")
        return yield* poll(request, acting, request.poll?.question?.trim() ?? request.content, handle.textId).pipe(
          Effect.as(published(String(handle.textId), linkOf(request.account, handle.textId))),
          // The text is out: a wait keeps this checkpoint (a failure would drop it and send the text again).
          Effect.catch((e) =>
            e.retryable
              ? Effect.succeed<PublishOutcome>({
                  _tag: "Processing",
                  handle: encodeHandle(handle),
                  checkAfterMs: e.retryAfterMs ?? POLL_RETRY_MS
                })
              : Effect.fail(e)
          )
        )
      return yield* fresh(request, acting, handle)
    })

  return {
    platform: "telegram",
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => encodeHandle(sending(now))),
    publish,
    // A bot cannot read a channel's history: a lost answer stays unknown and a person decides.
    recover: () => Effect.succeed({ _tag: "Unknown" } satisfies Recovery),
    advise: (_account: Account, _dueAt: number, post: AdvisedPost) =>
      Effect.succeed([
        ...new Set([
          ...problemsOf(post.text?.content ?? "", post.media),
          // Replies are text messages of their own.
          ...[
            ...(post.text?.thread ?? []),
            ...(post.text?.firstComment == null ? [] : [post.text.firstComment])
          ].flatMap((reply) => problemsOf(reply, []))
        ])
      ])
  }
}
