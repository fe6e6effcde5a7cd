import { Clock, Effect } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import {
  type AdvisedPost,
  published,
  PublishError,
  type Publisher,
  type PublishRequest,
  type UnpublishRequest
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import { isSuccess, type NoAnswer } from "../shared/http.ts"
import { readAll } from "../shared/media.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { DiscordSettings } from "./config.ts"
import { call, isUnknownMessage, isUnknownWebhook, parseWebhook, publishErrorOf, readMessage } from "./webhook.ts"

/** Discord's own limits on a message Herald checks before sending (the rules row holds the rest). */
const MAX_FILES = 10
const MAX_THREAD_NAME = 100
const MAX_POLL_QUESTION = 300

/** The webhook stored for an account, still on the configured API (a changed DISCORD_API_URL disowns older ones). */
const webhookOf = (c: NetworkCredentials | null, apiUrl: string) => {
  const webhook = c === null ? null : parseWebhook(c.accessToken, apiUrl)
  return webhook === null
    ? Effect.fail(
        PublishError.revoked({ message: "Herald has no usable webhook for this Discord channel; reconnect it." })
      )
    : Effect.succeed({ webhook, channelId: c?.extra?.channelId ?? "", guildId: c?.extra?.guildId ?? "" })
}

/**
 * A published message's id as Herald keeps it: `{channel}/{message}`, the channel being the webhook's
 * own or, in a forum, the post's thread (follow-ups and removals then name it with ?thread_id=).
 */
const externalIdOf = (channelId: string, messageId: string) => `${channelId}/${messageId}`
const partsOf = (externalId: string) => {
  const [channelId, messageId] = externalId.includes("/") ? externalId.split("/", 2) : ["", externalId]
  return { channelId: channelId ?? "", messageId: messageId ?? externalId }
}

/** Where the message went: the webhook's channel, or a thread in it (a forum post). */
const inThread = (channelId: string, homeChannel: string) =>
  channelId !== "" && channelId !== homeChannel ? channelId : null

const withQuery = (url: string, query: Readonly<Record<string, string | null>>) => {
  const u = new URL(url)
  for (const [k, v] of Object.entries(query)) if (v !== null) u.searchParams.set(k, v)
  return u.toString()
}

/** The text's first line, shortened to `max`: a poll's question when none is given. */
const firstLine = (text: string, max: number) => {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "Poll"
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

const hours = (minutes: number) => Math.max(1, Math.round(minutes / 60))

export const makePublisher = (deps: {
  readonly settings: DiscordSettings
  readonly blobs: BlobStoreShape
  readonly gate: RateGate
}): Publisher => {
  const { settings, blobs, gate } = deps
  const lost = (e: NoAnswer) =>
    PublishError.outcomeUnknown({
      message: `Discord's answer was lost (${e.message}): the message may have been posted; look in the channel before posting again.`
    })

  /** The message's JSON body, as Execute Webhook takes it. */
  const payloadOf = (request: PublishRequest, threadName: string | null, attachments: number) => {
    const poll = request.poll
    return {
      content: request.content,
      // Herald's posts never ping: no @everyone, @here, roles or users.
      allowed_mentions: { parse: [] },
      ...(threadName === null ? {} : { thread_name: threadName }),
      ...(attachments === 0 ? {} : { attachments: request.media.map((m, i) => ({ id: i, filename: m.filename })) }),
      ...(poll === null
        ? {}
        : {
            poll: {
              question: { text: (poll.question ?? "").trim() || firstLine(request.content, MAX_POLL_QUESTION) },
              answers: poll.options.map((text) => ({ poll_media: { text } })),
              duration: hours(poll.durationMinutes),
              allow_multiselect: false
            }
          })
    }
  }

  const publish = (request: PublishRequest) =>
    Effect.gen(function* () {
      const { webhook, channelId } = yield* webhookOf(request.credentials, settings.apiUrl)
      if (request.media.length > MAX_FILES)
        return yield* PublishError.refused({
          code: "upstream_rejected",
          message: `Discord takes up to ${MAX_FILES} attachments per message.`
        })
      if (request.poll !== null && request.media.length > 0)
        return yield* PublishError.refused({
          code: "upstream_rejected",
          message: "Discord does not take attachments on a message with a poll: post them apart."
        })
      const total = request.media.reduce((n, m) => n + m.sizeBytes, 0)
      if (total > settings.maxUploadBytes)
        return yield* PublishError.refused({
          code: "upstream_rejected",
          message: `Discord takes up to ${Math.floor(settings.maxUploadBytes / 1_048_576)} MB of attachments per message; this one has ${(total / 1_048_576).toFixed(1)} MB.`
        })
      // A follow-up (thread reply, first comment) goes where its post went: the forum post's thread, or the channel.
      const thread = request.replyTo === null ? null : inThread(partsOf(request.replyTo.rootId).channelId, channelId)
      const threadName =
        request.replyTo === null && request.options?.discord?.threadName != null
          ? request.options.discord.threadName.trim().slice(0, MAX_THREAD_NAME) || null
          : null
      const payload = JSON.stringify(payloadOf(request, threadName, request.media.length))
      let body: string | FormData = payload
      if (request.media.length > 0) {
        const form = new FormData()
        form.set("payload_json", payload)
        for (const [i, m] of request.media.entries())
          form.set(`files[${i}]`, new Blob([yield* readAll(blobs, m.blobKey)], { type: m.mimeType }), m.filename)
        body = form
      }
      const reply = yield* call(
        gate,
        webhook,
        {
          method: "POST",
          url: withQuery(webhook.url, { wait: "true", thread_id: thread }),
          headers: typeof body === "string" ? { "content-type": "application/json" } : {},
          body
        },
        settings.timeoutMs
      ).pipe(Effect.catchTag("NoAnswer", (e) => Effect.fail(lost(e))))
      // A 500 or 504 may come after Discord made the message: without an idempotency key, only a person can tell.
      if (reply.status === 500 || reply.status === 504)
        return yield* PublishError.outcomeUnknown({
          message: `Discord failed while taking the message (HTTP ${reply.status}): it may have been posted; look in the channel before posting again.`
        })
      if (!isSuccess(reply)) return yield* publishErrorOf(reply, "the message")
      const message = readMessage(reply)
      if (message._tag === "None")
        return yield* PublishError.outcomeUnknown({
          message: `Discord answered HTTP ${reply.status} but its message could not be read; look in the channel before posting again.`
        })
      const id = externalIdOf(message.value.channel_id, message.value.id)
      return published(
        id,
        messageUrl(request.credentials?.extra?.guildId ?? "", message.value.channel_id, message.value.id)
      )
    })

  /** DELETE {webhook}/messages/{id}: a message already gone (10008) counts as removed. */
  const unpublish = (request: UnpublishRequest) =>
    Effect.gen(function* () {
      const { webhook, channelId } = yield* webhookOf(request.credentials, settings.apiUrl)
      const parts = partsOf(request.externalId)
      const reply = yield* call(
        gate,
        webhook,
        {
          method: "DELETE",
          url: withQuery(`${webhook.url}/messages/${encodeURIComponent(parts.messageId)}`, {
            thread_id: inThread(parts.channelId, channelId)
          })
        },
        settings.timeoutMs
      ).pipe(
        Effect.catchTag("NoAnswer", (e) =>
          Effect.fail(PublishError.unavailable({ message: `Discord did not answer: ${e.message}` }))
        )
      )
      if (isSuccess(reply) || (reply.status === 404 && isUnknownMessage(reply))) return
      // Any other 404 (10003 Unknown Channel: the forum post's thread is gone) leaves nothing to remove either.
      if (reply.status === 404 && !isUnknownWebhook(reply)) return
      return yield* publishErrorOf(reply, "the removal of the message")
    })

  /** The dry run's word on what only Discord decides. */
  const advise = (_account: Account, _dueAt: number, post: AdvisedPost) =>
    Effect.succeed([
      "Discord posts through the channel's webhook: its name and avatar show as the author, and the post never pings anyone (allowed_mentions is empty).",
      ...(post.options.discord?.threadName == null
        ? [
            "If the webhook's channel is a forum, Discord needs a post title: give discord.threadName, or Discord refuses the post."
          ]
        : []),
      ...(post.media.reduce((n, m) => n + m.sizeBytes, 0) > settings.maxUploadBytes
        ? [
            `Discord takes up to ${Math.floor(settings.maxUploadBytes / 1_048_576)} MB of attachments per message; this post's are larger and Herald refuses it when publishing.`
          ]
        : [])
    ])

  return {
    platform: "discord",
    // Execute Webhook has no idempotency key and a webhook cannot list its channel: a lost answer stays unknown.
    prepare: () => Effect.map(Clock.currentTimeMillis, (now) => JSON.stringify({ v: 1, startedAt: now })),
    publish: (request) => publish(request),
    unpublish,
    advise
  }
}

/** The message's link in Discord's client (a webhook's server is known from the webhook; without it, none). */
const messageUrl = (guildId: string, channelId: string, messageId: string) =>
  guildId === "" ? null : `https://discord.com/channels/${guildId}/${channelId}/${messageId}`
