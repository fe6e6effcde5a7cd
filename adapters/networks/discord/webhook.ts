import { Clock, Effect, Schema } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, type HttpRequest, jsonOf, type NoAnswer, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"

/** Hosts whose webhook URLs are discord.com's own (the PTB and Canary clients, the old domain). */
const DISCORD_ALIASES = ["ptb.discord.com", "canary.discord.com", "discordapp.com", "www.discord.com"]

/** A channel webhook as Herald keeps it: the URL (a secret: its token posts to the channel) and its ids. */
export interface Webhook {
  readonly id: string
  readonly url: string
}

/**
 * The pasted URL, if it is a webhook on the configured API (`{apiUrl}/webhooks/{id}/{token}`, any
 * `/v10` version segment kept out); null for anything else, so Herald never calls a host a person named.
 */
export const parseWebhook = (raw: string, apiUrl: string): Webhook | null => {
  if (!URL.canParse(raw.trim())) return null
  const url = new URL(raw.trim())
  const api = new URL(apiUrl)
  // Discord's other clients copy the same webhook on their own hosts: on the default API, taken as discord.com's.
  if (api.origin === "https://discord.com" && url.protocol === "https:" && DISCORD_ALIASES.includes(url.host))
    url.host = api.host
  if (url.origin !== api.origin || url.username !== "" || url.password !== "") return null
  const prefix = api.pathname.replace(/\/+$/, "")
  if (!url.pathname.startsWith(`${prefix}/`)) return null
  const rest = url.pathname.slice(prefix.length).replace(/^\/v\d+(?=\/)/, "")
  const match = /^\/webhooks\/(\d{1,25})\/([A-Za-z0-9_-]{1,100})\/?$/.exec(rest)
  if (match === null) return null
  return { id: match[1]!, url: `${api.origin}${prefix}/webhooks/${match[1]}/${match[2]}` }
}

/** GET {webhook}: what Discord says the webhook is. */
export const WebhookObject = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(Schema.NullOr(Schema.String)),
  channel_id: Schema.String,
  guild_id: Schema.optional(Schema.NullOr(Schema.String)),
  avatar: Schema.optional(Schema.NullOr(Schema.String))
})
export const readWebhook = decodeReply(WebhookObject)

/** A message Discord made (`?wait=true`): its id, and the channel it is in (a forum post's own thread). */
export const MessageObject = Schema.Struct({ id: Schema.String, channel_id: Schema.String })
export const readMessage = decodeReply(MessageObject)

/** Discord's error body: `{message, code}`, with `errors` naming each field Invalid Form Body refused (a 429 adds `retry_after`). */
export const discordMessage = (reply: HttpReply): string => {
  const body = jsonOf(reply) as { message?: unknown; code?: unknown; errors?: unknown } | undefined
  const message = typeof body?.message === "string" ? body.message : `HTTP ${reply.status}`
  const coded = typeof body?.code === "number" && body.code !== 0 ? `${message} (code ${body.code})` : message
  const fields = fieldErrors(body?.errors, "")
  return fields.length === 0 ? coded : `${coded}: ${fields.slice(0, 3).join("; ")}`
}

/** `{content: {_errors: [{message}]}}` → `content: message`, nested paths joined with dots. */
const fieldErrors = (errors: unknown, path: string): ReadonlyArray<string> => {
  if (typeof errors !== "object" || errors === null) return []
  return Object.entries(errors).flatMap(([key, value]) =>
    key === "_errors" && Array.isArray(value)
      ? value.flatMap((e) =>
          typeof (e as { message?: unknown })?.message === "string"
            ? [`${path === "" ? "" : `${path}: `}${(e as { message: string }).message}`]
            : []
        )
      : fieldErrors(value, path === "" ? key : `${path}.${key}`)
  )
}

/** How long Discord asks to wait: the body's retry_after (seconds, a float), else the header's. */
export const retryAfterOf = (reply: HttpReply): number | undefined => {
  const body = jsonOf(reply) as { retry_after?: unknown } | undefined
  if (typeof body?.retry_after === "number") return Math.ceil(body.retry_after * 1000)
  const header = Number(reply.headers.get("retry-after") ?? Number.NaN)
  return Number.isFinite(header) ? Math.ceil(header * 1000) : undefined
}

/** Discord's refusal of a call, as the ports say it. */
export const publishErrorOf = (reply: HttpReply, what: string): PublishError => {
  const message = discordMessage(reply)
  if (reply.status === 429)
    return PublishError.rateLimited({
      message: `Discord is rate limiting ${what}: ${message}`,
      retryAfterMs: retryAfterOf(reply)
    })
  // 401 Invalid Webhook Token, 404 Unknown Webhook (10015): the webhook was deleted or its token reset.
  if (reply.status === 401 || (reply.status === 404 && isUnknownWebhook(reply)))
    return PublishError.revoked({
      message: `Discord no longer knows this webhook (${message}): it was deleted or its URL reset; reconnect the channel with a new webhook URL.`
    })
  if (reply.status === 403)
    return PublishError.revoked({ message: `Discord does not let this webhook post: ${message}` })
  if (reply.status >= 400 && reply.status < 500)
    return PublishError.refused({
      code: "upstream_rejected",
      message: `Discord refused ${what}: ${message}`,
      networkCode: String((jsonOf(reply) as { code?: unknown } | undefined)?.code ?? reply.status)
    })
  return PublishError.unavailable({ message: `Discord is unavailable: ${message}` })
}

/** 10015 Unknown Webhook; a 404 without a body is taken the same way (the webhook path is all Herald calls). */
export const isUnknownWebhook = (reply: HttpReply) => {
  const code = (jsonOf(reply) as { code?: unknown } | undefined)?.code
  return code === undefined || code === 10015
}

/** 10008 Unknown Message: the message is gone already. */
export const isUnknownMessage = (reply: HttpReply) => (jsonOf(reply) as { code?: unknown } | undefined)?.code === 10008

/** The gate's key for Discord's global limit (every webhook of this process's address). */
const GLOBAL = "discord:global"

/**
 * One call on a webhook, within its bucket: a bucket Discord said is spent (X-RateLimit-Remaining 0,
 * or a 429) is closed for X-RateLimit-Reset-After / retry_after, and calls meanwhile wait without reaching Discord.
 */
export const call = (
  gate: RateGate,
  webhook: Webhook,
  request: Omit<HttpRequest, "named" | "timeoutMs">,
  timeoutMs: number
): Effect.Effect<HttpReply, NoAnswer | PublishError> =>
  Effect.gen(function* () {
    const wait = yield* gate.waitFor([webhook.id, GLOBAL])
    if (wait > 0)
      return yield* PublishError.rateLimited({
        message: "Discord said this webhook's rate limit is spent; Herald waits for it to reset.",
        retryAfterMs: wait
      })
    // The host is the configured DISCORD_API_URL (parseWebhook refuses any other), so not a named one.
    const reply = yield* send({ ...request, named: false, timeoutMs })
    const now = yield* Clock.currentTimeMillis
    const resetAfter = Number(reply.headers.get("x-ratelimit-reset-after") ?? Number.NaN)
    if (reply.status === 429) {
      const retry = retryAfterOf(reply)
      // A global limit (body `global: true`, X-RateLimit-Scope: global) holds every webhook of this process.
      const global =
        (jsonOf(reply) as { global?: unknown } | undefined)?.global === true ||
        reply.headers.get("x-ratelimit-scope") === "global"
      if (retry !== undefined) yield* gate.closeUntil(global ? GLOBAL : webhook.id, now + retry)
    } else if (reply.headers.get("x-ratelimit-remaining") === "0" && Number.isFinite(resetAfter))
      yield* gate.closeUntil(webhook.id, now + Math.ceil(resetAfter * 1000))
    return reply
  })
