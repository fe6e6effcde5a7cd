import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's Pinterest app and the hosts it talks to; every host can be overridden (proxies, tests). */
export interface PinterestConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /v5/... (videos go to the upload URL Pinterest names). */
  readonly apiUrl: string
}

/** Reading boards and the account, reading and writing pins. */
/** GET /v5/pins/{id}/analytics reads one pin: pins whose figures one read gets. */
export const METRICS_BATCH = 1

export const scopes = ["boards:read", "pins:read", "pins:write", "user_accounts:read"] as const

const filled = (value: string) => value.trim() !== ""

/** Pinterest is offered when PINTEREST_CLIENT_ID and PINTEREST_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("PINTEREST_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("PINTEREST_CLIENT_SECRET")),
  authorizeUrl: Config.String("PINTEREST_AUTHORIZE_URL").pipe(Config.withDefault("https://www.pinterest.com/oauth/")),
  tokenUrl: Config.String("PINTEREST_TOKEN_URL").pipe(Config.withDefault("https://api.pinterest.com/v5/oauth/token")),
  apiUrl: Config.String("PINTEREST_API_URL").pipe(Config.withDefault("https://api.pinterest.com"))
}).pipe(
  Config.map((c): Option.Option<PinterestConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl: baseUrl(c.apiUrl)
    })
  })
)
