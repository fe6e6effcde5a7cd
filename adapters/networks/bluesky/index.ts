import { from, none } from "../../../domain/metrics.ts"
import { Config, Option } from "effect"
import { declareNetwork } from "../shared/declaration.ts"
import { connectForm } from "./connectForm.ts"
import { blueskyConfig, METRICS_BATCH } from "./config.ts"

/**
 * Bluesky, unless BLUESKY_ENABLED=false; handles log in at BLUESKY_SERVICE_URL (https://bsky.social).
 * On by default; its adapter (with @atproto/api: ~0.5 s and ~60 MB for a host) loads on the first
 * connect or publish, like every network's.
 */
export const network = declareNetwork({
  platform: "bluesky",
  label: "Bluesky",
  describe:
    "Bluesky: a handle and an app password (no app to register), offered unless BLUESKY_ENABLED=false; 300 graphemes, up to 4 images or one video, link cards, threads, first comments.",
  rules: {
    textLimit: 300,
    textCounting: "graphemes",
    mediaRequired: false,
    maxImages: 4,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 25,
    poll: null,
    firstComment: true,
    firstCommentLimit: 300,
    cover: false,
    videoMaxSeconds: 180,
    source: "AT Protocol app.bsky.feed.post lexicon (300 graphemes); 2026-11-21"
  },
  config: blueskyConfig.pipe(
    Config.map((c) => (c.enabled ? Option.some({ serviceUrl: c.serviceUrl, appViewUrl: c.appViewUrl }) : Option.none()))
  ),
  renews: true,
  offeredWithoutSettings: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: none("Bluesky counts no views."),
    likes: from("likeCount"),
    replies: from("replyCount"),
    reposts: from("repostCount", "quoteCount"),
    saves: from("bookmarkCount"),
    clicks: none("Bluesky counts no link clicks."),
    watchTimeSeconds: none("Bluesky reports no watch time.")
  },
  connectForm,
  load: () => import("./adapter.ts")
})
