import { Config, Option, Redacted } from "effect"
import { baseUrl } from "../shared/http.ts"

/** Herald's LinkedIn app and the hosts it talks to; every host can be overridden (proxies, tests). */
export interface LinkedInConfig {
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  readonly authorizeUrl: string
  readonly tokenUrl: string
  /** Herald appends /rest/... and /v2/userinfo. Uploads go where LinkedIn's upload instructions say. */
  readonly apiUrl: string
  /** The `LinkedIn-Version` header (YYYYMM) of every REST call: LinkedIn sunsets versions after about a year. */
  readonly version: string
  /** Whether to ask for the organization scopes and connect the pages the member administers. */
  readonly organizations: boolean
}

/** Posting as the member, their name and picture (OpenID Connect userinfo). */
export const memberScopes = ["openid", "profile", "w_member_social"] as const
/** Posting as, and reading the posts of, the pages the member administers (Community Management API). */
export const organizationScopes = ["w_organization_social", "r_organization_social", "rw_organization_admin"] as const

export const scopesOf = (config: Pick<LinkedInConfig, "organizations">): ReadonlyArray<string> =>
  config.organizations ? [...memberScopes, ...organizationScopes] : memberScopes

/** organizationalEntityShareStatistics takes a list of posts (a member's are read one by one). */
export const METRICS_BATCH = 20

const filled = (value: string) => value.trim() !== ""

/** LinkedIn is offered when LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET are both set. */
export const config = Config.all({
  clientId: Config.option(Config.String("LINKEDIN_CLIENT_ID")),
  clientSecret: Config.option(Config.Redacted("LINKEDIN_CLIENT_SECRET")),
  authorizeUrl: Config.String("LINKEDIN_AUTHORIZE_URL").pipe(
    Config.withDefault("https://www.linkedin.com/oauth/v2/authorization")
  ),
  tokenUrl: Config.String("LINKEDIN_TOKEN_URL").pipe(
    Config.withDefault("https://www.linkedin.com/oauth/v2/accessToken")
  ),
  apiUrl: Config.String("LINKEDIN_API_URL").pipe(Config.withDefault("https://api.linkedin.com")),
  version: Config.String("LINKEDIN_VERSION").pipe(Config.withDefault("202607")),
  organizations: Config.Boolean("LINKEDIN_ORGANIZATIONS").pipe(Config.withDefault(true))
}).pipe(
  Config.map((c): Option.Option<LinkedInConfig> => {
    const clientId = Option.filter(c.clientId, filled)
    const clientSecret = Option.filter(c.clientSecret, (s) => filled(Redacted.value(s)))
    if (Option.isNone(clientId) || Option.isNone(clientSecret)) return Option.none()
    return Option.some({
      clientId: clientId.value,
      clientSecret: clientSecret.value,
      authorizeUrl: c.authorizeUrl,
      tokenUrl: c.tokenUrl,
      apiUrl: baseUrl(c.apiUrl),
      version: c.version.trim(),
      organizations: c.organizations
    })
  })
)
