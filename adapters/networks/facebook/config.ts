import { Config, Option } from "effect"
import { facebookApp, type MetaAppConfig } from "../meta/config.ts"

/**
 * Facebook is offered when FACEBOOK_CLIENT_ID and FACEBOOK_CLIENT_SECRET are set; its hosts can be
 * overridden (FACEBOOK_AUTHORIZE_URL, FACEBOOK_TOKEN_URL, FACEBOOK_API_URL) and its Graph API
 * version is META_GRAPH_VERSION.
 */
export const config = facebookApp

/**
 * The person's Pages and their tokens, posting and commenting as the Page, Pages held in business
 * portfolios, and the Instagram professional accounts linked to the Pages (connected alongside), and
 * both's insights (what each post did).
 */
export const scopes = [
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "pages_manage_engagement",
  "business_management",
  "instagram_basic",
  "instagram_content_publish",
  "instagram_manage_comments",
  "read_insights",
  "instagram_manage_insights"
] as const

/** Facebook's app, with FACEBOOK_CONFIG_ID when set: Facebook Login for Business asks for that saved configuration instead of scopes. */
export interface FacebookSettings extends MetaAppConfig {
  readonly configId?: string | undefined
}

/** Facebook's settings, when its app is set. */
export const enabled = Config.all({ app: config, configId: Config.option(Config.String("FACEBOOK_CONFIG_ID")) }).pipe(
  Config.map(({ app, configId }) =>
    Option.map(app, (settings): FacebookSettings => {
      const id = Option.getOrElse(configId, () => "").trim()
      return id === "" ? settings : { ...settings, configId: id }
    })
  )
)
