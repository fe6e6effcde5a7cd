import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/**
 * Herald's Google OAuth client for Business Profile (its own, apart from YouTube's: another consent
 * screen, another API to enable) and the three API hosts it talks to; every host can be overridden.
 */
export interface GoogleBusinessConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Account Management API: Herald appends /v1/accounts. */
  readonly accountsUrl: string
  /** Business Information API: Herald appends /v1/{account}/locations. */
  readonly locationsUrl: string
  /** The v4 My Business API, where local posts live: Herald appends /v4/{account}/{location}/localPosts. */
  readonly postsUrl: string
  /** The localPost's languageCode when a post names none. */
  readonly languageCode: string
}

/** Managing the business's locations and posts: Google's one scope for the Business Profile APIs. */
export const scopes = ["https://www.googleapis.com/auth/business.manage"] as const

const filled = (value: string) => value.trim() !== ""

/** Google Business Profile is offered when GOOGLE_BUSINESS_CLIENT_ID and GOOGLE_BUSINESS_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("GOOGLE_BUSINESS_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("GOOGLE_BUSINESS_CLIENT_SECRET")),
  authorizeUrl: Config.String("GOOGLE_BUSINESS_AUTHORIZE_URL").pipe(
    Config.withDefault("https://accounts.google.com/o/oauth2/v2/auth")
  ),
  tokenUrl: Config.String("GOOGLE_BUSINESS_TOKEN_URL").pipe(Config.withDefault("https://oauth2.googleapis.com/token")),
  accountsUrl: Config.String("GOOGLE_BUSINESS_ACCOUNTS_URL").pipe(
    Config.withDefault("https://mybusinessaccountmanagement.googleapis.com")
  ),
  locationsUrl: Config.String("GOOGLE_BUSINESS_LOCATIONS_URL").pipe(
    Config.withDefault("https://mybusinessbusinessinformation.googleapis.com")
  ),
  postsUrl: Config.String("GOOGLE_BUSINESS_POSTS_URL").pipe(Config.withDefault("https://mybusiness.googleapis.com")),
  languageCode: Config.String("GOOGLE_BUSINESS_LANGUAGE").pipe(Config.withDefault("en"))
}).pipe(
  Config.map((c): Option.Option<GoogleBusinessConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      accountsUrl: baseUrl(c.accountsUrl),
      locationsUrl: baseUrl(c.locationsUrl),
      postsUrl: baseUrl(c.postsUrl),
      languageCode: filled(c.languageCode) ? c.languageCode.trim() : "en"
    })
  })
)
