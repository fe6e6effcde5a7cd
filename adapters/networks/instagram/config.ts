import { Config, Option } from "effect"
import { facebookApp, instagramApp } from "../meta/config.ts"

/**
 * Instagram is offered when INSTAGRAM_CLIENT_ID and INSTAGRAM_CLIENT_SECRET are set (Instagram API
 * with Instagram Login, accounts without a Page), or when Facebook is (Facebook Login: the
 * professional accounts linked to the person's Pages). Both may be set: Instagram Login connects,
 * and accounts connected through Facebook keep publishing through graph.facebook.com.
 */
export const config = Config.all({ instagram: instagramApp, facebook: facebookApp })

/** Both apps, when at least one is set. */
export const enabled = config.pipe(
  Config.map((apps) =>
    Option.isNone(apps.instagram) && Option.isNone(apps.facebook) ? Option.none() : Option.some(apps)
  )
)

/** Instagram Login: publish, read the profile and media (recovery), comment (first comment), read insights (figures). */
export const instagramScopes = [
  "instagram_business_basic",
  "instagram_business_content_publish",
  "instagram_business_manage_comments",
  "instagram_business_manage_insights"
] as const

/** Facebook Login for Instagram: the Pages and their linked professional accounts, publish and comment. */
export const facebookScopes = [
  "instagram_basic",
  "instagram_content_publish",
  "instagram_manage_comments",
  "pages_show_list",
  "pages_read_engagement",
  "business_management",
  "instagram_manage_insights"
] as const

/** A media's insights Herald reads (views replaced impressions in 2025; Reels' watch time is a Reels-only metric). */
export const INSIGHTS_METRICS = [
  "views",
  "reach",
  "likes",
  "comments",
  "shares",
  "saved",
  "total_interactions"
] as const
