import { Effect } from "effect"
import type { Connector } from "../../../application/ports/Connectors.ts"
import { fail, type HeraldError, invalidFields } from "../../../domain/errors.ts"
import type { NoAnswer } from "../shared/http.ts"
import type { BotAnswer, BotApi } from "./api.ts"

/** A token as @BotFather gives it: the bot's numeric id, a colon, a secret. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/

/**
 * The chat as a person may name it: `@channel`, `channel`, a t.me link, or a numeric id (-100… for
 * channels and supergroups); what getChat takes, or null when it is none of these.
 */
export const chatIdOf = (raw: string): string | null => {
  const text = raw.trim()
  if (/^-?\d{1,20}$/.test(text)) return text
  const name = text.replace(/^(?:https?:\/\/)?(?:t\.me|telegram\.me)\//i, "").replace(/^@/, "")
  return /^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(name) ? `@${name}` : null
}

const unreachable = (e: NoAnswer): HeraldError =>
  fail("upstream_unavailable", { platform: "telegram" }, `The Telegram Bot API could not be reached: ${e.message}`)

/** A failed connect call: flood control and outages are upstream's; anything else is what `refused` says of the field. */
const failedCall = (
  answer: Extract<BotAnswer<unknown>, { _tag: "Failed" }>,
  refused: () => HeraldError
): HeraldError =>
  answer.status === 429
    ? fail(
        "upstream_unavailable",
        { platform: "telegram", ...(answer.retryAfter === null ? {} : { retryAfterSeconds: answer.retryAfter }) },
        `Telegram is limiting the bot's calls: ${answer.description}`
      )
    : answer.status >= 500
      ? fail("upstream_unavailable", { platform: "telegram" }, `Telegram failed: ${answer.description}`)
      : refused()

/**
 * Telegram connects on Herald's own form: the bot's token and the chat it posts to. getMe proves the
 * token, getChat finds the chat, getChatMember shows the bot is an administrator there allowed to post;
 * the account is the chat, its credentials the token (sealed like any network's) and the chat's id.
 */
export const make = (api: BotApi): Connector => {
  const complete: Connector["complete"] = ({ params }) =>
    Effect.gen(function* () {
      const token = (params.botToken ?? "").trim()
      const named = (params.chat ?? "").trim()
      const missing = [...(token === "" ? ["botToken"] : []), ...(named === "" ? ["chat"] : [])]
      if (missing.length > 0)
        return yield* Effect.fail(
          invalidFields(missing, "Give the bot's token from @BotFather and the channel or group.")
        )
      if (!TOKEN.test(token))
        return yield* Effect.fail(
          invalidFields(
            ["botToken"],
            "That is not a bot token: @BotFather gives one like 123456789:AAH…, digits, a colon, then letters."
          )
        )
      const chatId = chatIdOf(named)
      if (chatId === null)
        return yield* Effect.fail(
          invalidFields(
            ["chat"],
            "Name the chat by its @username (for example @herald_news) or its numeric id (-100…)."
          )
        )

      const me = yield* Effect.mapError(api.getMe(token), unreachable)
      if (me._tag === "Failed")
        return yield* Effect.fail(
          failedCall(me, () =>
            invalidFields(
              ["botToken"],
              `Telegram did not accept this bot token (${me.description}); copy it again from @BotFather.`
            )
          )
        )
      const chat = yield* Effect.mapError(api.getChat(token, chatId), unreachable)
      if (chat._tag === "Failed")
        return yield* Effect.fail(
          failedCall(chat, () =>
            invalidFields(
              ["chat"],
              `The bot cannot see ${named} (${chat.description}): add the bot to the channel or group as an administrator first.`
            )
          )
        )
      if (chat.result.type === "private")
        return yield* Effect.fail(
          invalidFields(["chat"], "That is a person's chat: Herald posts to channels and groups.")
        )
      const member = yield* Effect.mapError(api.getChatMember(token, chatId, me.result.id), unreachable)
      if (member._tag === "Failed")
        return yield* Effect.fail(
          failedCall(member, () =>
            invalidFields(["chat"], `Telegram would not say what the bot may do in ${named}: ${member.description}`)
          )
        )
      const canPost =
        member.result.status === "creator" ||
        (member.result.status === "administrator" &&
          (chat.result.type !== "channel" || member.result.can_post_messages === true))
      if (!canPost)
        return yield* Effect.fail(
          invalidFields(
            ["chat"],
            member.result.status === "administrator"
              ? `The bot is an administrator of ${named} but may not post there: give it the "Post messages" right.`
              : `The bot is not an administrator of ${named}: make it one, allowed to post messages.`
          )
        )
      const id = String(chat.result.id)
      const username = chat.result.username
      return [
        {
          profile: {
            externalId: id,
            name: chat.result.title ?? chat.result.first_name ?? username ?? id,
            username: username === undefined ? id : `@${username}`,
            // A chat's photo is fetched through a URL holding the token: never handed out.
            avatarUrl: null
          },
          credentials: {
            accessToken: token,
            refreshToken: null,
            expiresAt: null,
            extra: {
              chatId: id,
              chatType: chat.result.type,
              botId: String(me.result.id),
              ...(username === undefined ? {} : { chatUsername: username })
            }
          }
        }
      ]
    })

  return {
    platform: "telegram",
    begin: ({ state, formUrl }) =>
      Effect.succeed({ url: `${formUrl}?state=${encodeURIComponent(state)}`, verifier: null }),
    complete
  }
}
