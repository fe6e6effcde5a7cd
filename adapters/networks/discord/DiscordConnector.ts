import { Effect } from "effect"
import type { Connection, Connector } from "../../../application/ports/Connectors.ts"
import { fail, invalidFields } from "../../../domain/errors.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { DiscordSettings } from "./config.ts"
import { call, discordMessage, parseWebhook, readWebhook } from "./webhook.ts"

/** A Discord user's avatar on its CDN, when the webhook has one. */
const avatarUrl = (id: string, avatar: string | null | undefined) =>
  avatar == null ? null : `https://cdn.discordapp.com/avatars/${id}/${avatar}.png`

/**
 * Discord connects with a channel webhook URL pasted on Herald's own form: Herald reads the webhook
 * (GET, which needs only its URL) and keeps the URL sealed, since anyone holding it can post there.
 */
export const makeConnector = (settings: DiscordSettings, gate: RateGate): Connector => ({
  platform: "discord",
  begin: ({ state, formUrl }) =>
    Effect.succeed({ url: `${formUrl}?state=${encodeURIComponent(state)}`, verifier: null }),
  complete: ({ params }) =>
    Effect.gen(function* () {
      const raw = (params.webhookUrl ?? "").trim()
      if (raw === "") return yield* invalidFields(["webhookUrl"], "Paste the channel's webhook URL.")
      const webhook = parseWebhook(raw, settings.apiUrl)
      if (webhook === null)
        return yield* invalidFields(
          ["webhookUrl"],
          `That is not a Discord webhook URL: it looks like ${settings.apiUrl}/webhooks/123456789/abcdef... (in Discord: the channel's Edit Channel → Integrations → Webhooks → Copy Webhook URL).`
        )
      const reply = yield* call(gate, webhook, { method: "GET", url: webhook.url }, settings.timeoutMs).pipe(
        Effect.catchTags({
          NoAnswer: (e) =>
            fail("upstream_unavailable", { platform: "discord" }, `Discord could not be reached: ${e.message}`),
          PublishError: (e) =>
            fail("upstream_unavailable", { platform: "discord", retryAfterMs: e.retryAfterMs }, e.message)
        })
      )
      if (reply.status === 401 || reply.status === 404)
        return yield* invalidFields(
          ["webhookUrl"],
          `Discord does not know this webhook (${discordMessage(reply)}): it was deleted or its URL reset. Copy the URL again from the channel's settings.`
        )
      if (reply.status === 429 || reply.status >= 500)
        return yield* fail(
          "upstream_unavailable",
          { platform: "discord", status: reply.status },
          `Discord could not check the webhook now: ${discordMessage(reply)}`
        )
      if (reply.status < 200 || reply.status >= 300)
        return yield* fail(
          "upstream_rejected",
          { platform: "discord", status: reply.status, reason: discordMessage(reply) },
          `Discord refused to show the webhook: ${discordMessage(reply)}`
        )
      const found = readWebhook(reply)
      if (found._tag === "None" || found.value.id !== webhook.id)
        return yield* fail(
          "upstream_unavailable",
          { platform: "discord", status: reply.status },
          "Discord's answer about the webhook could not be read."
        )
      const hook = found.value
      const connection: Connection = {
        profile: {
          // The account is the channel: a new webhook for the same channel reconnects it.
          externalId: hook.channel_id,
          name: hook.name?.trim() || `Channel ${hook.channel_id}`,
          username: hook.channel_id,
          avatarUrl: avatarUrl(hook.id, hook.avatar)
        },
        credentials: {
          accessToken: webhook.url,
          refreshToken: null,
          // A webhook lasts until someone deletes it or resets its URL.
          expiresAt: null,
          extra: { webhookId: hook.id, channelId: hook.channel_id, guildId: hook.guild_id ?? "" }
        }
      }
      return [connection]
    })
})
