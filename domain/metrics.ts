import type { Platform } from "./platforms.ts"

/** The small common set every network's figures are normalised to. */
export const metricNames = ["views", "likes", "replies", "reposts", "saves", "clicks", "watchTimeSeconds"] as const
export type MetricName = (typeof metricNames)[number]

/** A network's own figures, under its own names, as it answered. */
export type RawFigures = Readonly<Record<string, number | null>>

/** How one common figure is read from a network's raw figures: a sum of raw names, or null with the reason. */
export type MetricSource = { readonly from: ReadonlyArray<string>; readonly note?: string } | { readonly none: string }

/** One common figure of a reading: a value, or null and why. */
export interface Figure {
  readonly value: number | null
  readonly reason: string | null
}

export type CommonFigures = Readonly<Record<MetricName, Figure>>

const none = (why: string): MetricSource => ({ none: why })
const from = (...names: ReadonlyArray<string>): MetricSource => ({ from: names })

/**
 * Per network: which raw figure gives each common one, or why none does. This table is the one place
 * the README's table and the API's null reasons come from; raw names are the network's own.
 */
export const metricSources: Record<Platform, Record<MetricName, MetricSource>> = {
  x: {
    views: from("impression_count"),
    likes: from("like_count"),
    replies: from("reply_count"),
    reposts: from("retweet_count", "quote_count"),
    saves: from("bookmark_count"),
    clicks: from("url_link_clicks"),
    watchTimeSeconds: none("X reports video playback quartiles, not watch time.")
  },
  linkedin: {
    views: from("IMPRESSION", "impressionCount"),
    likes: from("REACTION", "likeCount"),
    replies: from("COMMENT", "commentCount"),
    reposts: from("RESHARE", "shareCount"),
    saves: none("LinkedIn's post analytics count no saves."),
    clicks: from("clickCount"),
    watchTimeSeconds: none("LinkedIn's video analytics are a separate API Herald does not read.")
  },
  instagram: {
    views: from("views"),
    likes: from("likes"),
    replies: from("comments"),
    reposts: from("shares"),
    saves: from("saved"),
    clicks: none("Instagram counts no link clicks on a post."),
    watchTimeSeconds: none("Instagram's watch time is a Reels-only metric Herald does not read.")
  },
  facebook: {
    views: from("post_impressions"),
    likes: from("post_reactions_like_total"),
    replies: from("comments"),
    reposts: from("shares"),
    saves: none("Facebook's page post insights count no saves."),
    clicks: from("post_clicks"),
    watchTimeSeconds: none("Facebook's video watch time is a video insight Herald does not read.")
  },
  threads: {
    views: from("views"),
    likes: from("likes"),
    replies: from("replies"),
    reposts: from("reposts", "quotes"),
    saves: none("Threads' media insights count no saves."),
    clicks: none("Threads counts link clicks per account, not per post."),
    watchTimeSeconds: none("Threads reports no watch time.")
  },
  mastodon: {
    views: none("Mastodon counts no views."),
    likes: from("favourites_count"),
    replies: from("replies_count"),
    reposts: from("reblogs_count"),
    saves: none("Mastodon shows no one's bookmarks but the account's own."),
    clicks: none("Mastodon counts no link clicks."),
    watchTimeSeconds: none("Mastodon reports no watch time.")
  },
  telegram: {
    views: none("The Bot API gives a bot no view counts of a channel's posts."),
    likes: none("The Bot API gives a bot no reaction counts of its posts."),
    replies: none("The Bot API gives a bot no reply counts."),
    reposts: none("The Bot API gives a bot no forward counts."),
    saves: none("Telegram counts no saves."),
    clicks: none("Telegram counts no link clicks for bots."),
    watchTimeSeconds: none("Telegram reports no watch time.")
  },
  discord: {
    views: none("Herald reads no figures from Discord: a webhook cannot read its messages' reactions."),
    likes: none("Herald reads no figures from Discord: a webhook cannot read its messages' reactions."),
    replies: none("Herald reads no figures from Discord."),
    reposts: none("Discord has no reposts."),
    saves: none("Discord has no saves."),
    clicks: none("Discord counts no link clicks."),
    watchTimeSeconds: none("Discord reports no watch time.")
  },
  bluesky: {
    views: none("Bluesky counts no views."),
    likes: from("likeCount"),
    replies: from("replyCount"),
    reposts: from("repostCount", "quoteCount"),
    saves: from("bookmarkCount"),
    clicks: none("Bluesky counts no link clicks."),
    watchTimeSeconds: none("Bluesky reports no watch time.")
  },
  tiktok: {
    views: from("view_count"),
    likes: from("like_count"),
    replies: from("comment_count"),
    reposts: from("share_count"),
    saves: none("TikTok's Display API gives no save count."),
    clicks: none("TikTok's Display API gives no click count."),
    watchTimeSeconds: none("TikTok's Display API gives no watch time.")
  },
  youtube: {
    views: from("viewCount"),
    likes: from("likeCount"),
    replies: from("commentCount"),
    reposts: none("YouTube has no reposts."),
    saves: none("YouTube's favoriteCount is deprecated and always 0."),
    clicks: none("YouTube's Data API gives no click count."),
    watchTimeSeconds: none("Watch time needs the YouTube Analytics API, which Herald does not read.")
  },
  pinterest: {
    views: from("IMPRESSION"),
    likes: none("Pinterest reports no likes on a pin."),
    replies: none("Pinterest's pin analytics count no comments."),
    reposts: none("Pinterest's saves are its reposts; see saves."),
    saves: from("SAVE"),
    clicks: from("OUTBOUND_CLICK"),
    watchTimeSeconds: none("Pinterest reports average, not total, watch time.")
  },
  sandbox: {
    views: from("views"),
    likes: from("likes"),
    replies: from("replies"),
    reposts: from("reposts"),
    saves: from("saves"),
    clicks: from("clicks"),
    watchTimeSeconds: none("The sandbox has no video player.")
  }
}

/**
 * The common figures of one reading: each is the sum of the raw names the table names that the network
 * gave; null with the table's reason when the network has none, or with "not given" when it left them out.
 */
export const normalise = (platform: Platform, raw: RawFigures): CommonFigures => {
  const sources = metricSources[platform]
  const out = {} as Record<MetricName, Figure>
  for (const name of metricNames) {
    const source = sources[name]
    if ("none" in source) {
      out[name] = { value: null, reason: source.none }
      continue
    }
    const given = source.from.map((n) => raw[n]).filter((v): v is number => typeof v === "number")
    out[name] =
      given.length === 0
        ? { value: null, reason: `The network did not give ${source.from.join(" or ")} for this post.` }
        : { value: given.reduce((a, b) => a + b, 0), reason: null }
  }
  return out
}

/** Refresh after publishing: about 1 h, 24 h, 7 d and 30 d (then only on demand). */
export const refreshOffsetsMs = [3_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000] as const

/** When the next scheduled refresh after `stage` is due (null: none left), counted from publishing. */
export const nextDueAt = (publishedAt: number, stage: number): number | null => {
  const offset = refreshOffsetsMs[stage]
  return offset === undefined ? null : publishedAt + offset
}

/** An on-demand refresh of an account is refused within this long of its last read (the per-account floor). */
export const onDemandFloorMs = 15 * 60_000

/** An account whose analytics the network refused (scope, tier) is asked again only after this long, or on reconnect. */
export const unavailableRetryMs = 7 * 86_400_000

/** The UTC day of an instant, YYYY-MM-DD. */
export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10)
