import { PublishError } from "../../../application/ports/Publishers.ts"
import type { NoAnswer } from "../shared/http.ts"
import type { BotAnswer } from "./api.ts"

type Failed = Extract<BotAnswer<unknown>, { _tag: "Failed" }>

/**
 * A Bot API refusal of a publishing call, in Herald's terms: 429 is flood control (wait `retry_after`);
 * 401 (the token was revoked) and 403 (the bot was kicked, or lost its rights) need the person to connect
 * again; any other 4xx is Telegram refusing this message, in its own words; 5xx is an outage.
 */
export const publishErrorOf = (answer: Failed, what: string): PublishError => {
  if (answer.status === 429)
    return PublishError.rateLimited({
      message: `Telegram is limiting the bot: ${answer.description}`,
      ...(answer.retryAfter === null ? {} : { retryAfterMs: answer.retryAfter * 1000 })
    })
  if (answer.status === 401)
    return PublishError.revoked({
      message: `Telegram no longer accepts the bot's token (${answer.description}): it was revoked in @BotFather; connect the chat again with a new token.`
    })
  if (answer.status === 403)
    return PublishError.revoked({
      message: `Telegram does not let the bot post to this chat (${answer.description}): add it back as an administrator allowed to post, then connect again.`
    })
  // The group became a supergroup with a new id: the account Herald has is the old chat.
  if (answer.migrateTo !== null)
    return PublishError.revoked({
      message: `The group became a supergroup with the id ${answer.migrateTo} (${answer.description}); connect it again by its new id.`
    })
  if (answer.status >= 400 && answer.status < 500)
    return PublishError.refused({
      code: "upstream_rejected",
      message: `Telegram refused ${what}: ${answer.description}`,
      networkCode: String(answer.status)
    })
  return PublishError.unavailable({ message: `Telegram is unavailable: ${answer.description}` })
}

/** No answer to a send: Telegram may have posted it, and a bot cannot look, so a person decides. */
export const lostAnswer = (e: NoAnswer, what: string): PublishError =>
  PublishError.outcomeUnknown({ message: `The outcome of ${what} on Telegram is unknown: ${e.message}` })
