import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's X app and the hosts it talks to; every host can be overridden (proxies, tests). */
export interface XConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /2/... */
  readonly apiUrl: string
  /** Where media goes (/2/media/upload...); the API host unless X_UPLOAD_URL says otherwise. */
  readonly uploadUrl: string
}

/** What Herald asks of an X account: post, upload media, read the profile and its own posts (recovery), and stay connected. */
export const scopes = ["tweet.read", "tweet.write", "users.read", "offline.access", "media.write"] as const

/** GET /2/tweets takes up to 100 ids: posts whose figures one read gets. */
export const METRICS_BATCH = 100

const filled = (value: string) => value.trim() !== ""

/** X is offered when X_CLIENT_ID and X_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("X_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("X_CLIENT_SECRET")),
  authorizeUrl: Config.String("X_AUTHORIZE_URL").pipe(Config.withDefault("https://x.com/i/oauth2/authorize")),
  tokenUrl: Config.String("X_TOKEN_URL").pipe(Config.withDefault("https://api.x.com/2/oauth2/token")),
  apiUrl: Config.String("X_API_URL").pipe(Config.withDefault("https://api.x.com")),
  uploadUrl: Config.option(Config.String("X_UPLOAD_URL"))
}).pipe(
  Config.map((c): Option.Option<XConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    const apiUrl = baseUrl(c.apiUrl)
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl,
      uploadUrl: baseUrl(Option.getOrElse(Option.filter(c.uploadUrl, filled), () => apiUrl))
    })
  })
)
