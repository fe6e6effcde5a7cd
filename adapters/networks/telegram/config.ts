import { Config, Option } from "effect"

/** Where the Bot API is when TELEGRAM_API_URL is not set. */
export const DEFAULT_API_URL = "https://api.telegram.org"

/** Herald on Telegram: no app to register (each account brings its own bot), only where the Bot API is. */
export interface TelegramSettings {
  /** The Bot API's base URL (a self-hosted telegram-bot-api server, or a test's stand-in). */
  readonly apiUrl: string
}

/** Telegram is offered unless TELEGRAM_ENABLED=false; TELEGRAM_API_URL names the Bot API server (the operator's, so not `named`). */
export const config = Config.all({
  enabled: Config.Boolean("TELEGRAM_ENABLED").pipe(Config.withDefault(true)),
  apiUrl: Config.String("TELEGRAM_API_URL").pipe(Config.withDefault(DEFAULT_API_URL))
}).pipe(
  Config.map(
    (c): Option.Option<TelegramSettings> =>
      c.enabled ? Option.some({ apiUrl: c.apiUrl.trim() === "" ? DEFAULT_API_URL : c.apiUrl.trim() }) : Option.none()
  )
)
