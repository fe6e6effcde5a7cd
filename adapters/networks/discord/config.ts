import { Config, Option } from "effect"

/** Where webhooks live when DISCORD_API_URL is not set. */
export const DEFAULT_API_URL = "https://discord.com/api"

/** Discord's default upload limit per message (a server's boosts raise it; Herald keeps to the default). */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024

export interface DiscordSettings {
  /** The one API a pasted webhook URL may point at (its origin and path prefix). */
  readonly apiUrl: string
  /** Most bytes of attachments one message carries. */
  readonly maxUploadBytes: number
  /** Milliseconds one call may take. */
  readonly timeoutMs: number
}

/**
 * Discord needs no app to register (accounts connect with a channel webhook URL the person pastes), so
 * it is offered unless DISCORD_ENABLED=false; DISCORD_API_URL names the only host webhooks may be on.
 */
export const config = Config.all({
  enabled: Config.Boolean("DISCORD_ENABLED").pipe(Config.withDefault(true)),
  apiUrl: Config.String("DISCORD_API_URL").pipe(Config.withDefault(DEFAULT_API_URL)),
  maxUploadBytes: Config.Int("DISCORD_MAX_UPLOAD_BYTES").pipe(Config.withDefault(DEFAULT_MAX_UPLOAD_BYTES))
}).pipe(
  Config.map(
    (c): Option.Option<DiscordSettings> =>
      c.enabled
        ? Option.some({ apiUrl: c.apiUrl.replace(/\/+$/, ""), maxUploadBytes: c.maxUploadBytes, timeoutMs: 30_000 })
        : Option.none()
  )
)
