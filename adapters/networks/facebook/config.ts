import { facebookApp } from "../meta/config.ts"

/**
 * Facebook is offered when FACEBOOK_CLIENT_ID and FACEBOOK_CLIENT_SECRET are set; its hosts can be
 * overridden (FACEBOOK_AUTHORIZE_URL, FACEBOOK_TOKEN_URL, FACEBOOK_API_URL) and its Graph API
 * version is META_GRAPH_VERSION.
 */
export const config = facebookApp

/**
 * The person's Pages and their tokens, posting and commenting as the Page, Pages held in business
 * portfolios, and the Instagram professional accounts linked to the Pages (connected alongside).
 */
export const scopes = [
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "pages_manage_engagement",
  "business_management",
  "instagram_basic",
  "instagram_content_publish",
  "instagram_manage_comments"
] as const
