import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's Reddit app ("web app" type) and the hosts it talks to; every host can be overridden (proxies, tests). */
export interface RedditConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /api/... (https://oauth.reddit.com: calls with a bearer token go there, not to www). */
  readonly apiUrl: string
  /** Reddit throttles or blocks generic agents: `<platform>:<app id>:<version> (by /u/<name>)`, on every call. */
  readonly userAgent: string
}

/** Who the account is, posting and commenting, reading posts and subreddit rules, flair, its subreddits, deleting its own posts. */
export const scopes = ["identity", "submit", "read", "flair", "mysubreddits", "edit"] as const

/** GET /api/info takes up to 100 fullnames in one call. */
export const METRICS_BATCH = 100

const filled = (value: string) => value.trim() !== ""

/** Reddit is offered when REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("REDDIT_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("REDDIT_CLIENT_SECRET")),
  authorizeUrl: Config.String("REDDIT_AUTHORIZE_URL").pipe(
    Config.withDefault("https://www.reddit.com/api/v1/authorize")
  ),
  tokenUrl: Config.String("REDDIT_TOKEN_URL").pipe(Config.withDefault("https://www.reddit.com/api/v1/access_token")),
  apiUrl: Config.String("REDDIT_API_URL").pipe(Config.withDefault("https://oauth.reddit.com")),
  userAgent: Config.option(Config.String("REDDIT_USER_AGENT"))
}).pipe(
  Config.map((c): Option.Option<RedditConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl: baseUrl(c.apiUrl),
      userAgent: Option.getOrElse(
        Option.filter(
          Option.map(c.userAgent, (s) => s.trim()),
          filled
        ),
        () => `server:herald.${clientId.value}:1.0 (Herald social publishing)`
      )
    })
  })
)
