import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/** X: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "x",
  label: "X",
  describe:
    "X (Twitter): OAuth 2.0 with X_CLIENT_ID/X_CLIENT_SECRET; 280 weighted characters, up to 4 images or one video, threads, polls, first comments.",
  rules: {
    textLimit: 280,
    textCounting: "x-weighted",
    mediaRequired: false,
    maxImages: 4,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 280,
    cover: false,
    videoMaxSeconds: 140,
    videoMinSeconds: 0.5,
    poll: { minOptions: 2, maxOptions: 4, maxOptionLength: 25, durationMinutes: { min: 5, max: 10_080 } },
    source: "X API v2 POST /2/tweets, twitter-text weighting; 2026-11-21"
  },
  config,
  renews: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("impression_count"),
    likes: from("like_count"),
    replies: from("reply_count"),
    reposts: from("retweet_count", "quote_count"),
    saves: from("bookmark_count"),
    clicks: from("url_link_clicks"),
    watchTimeSeconds: none("X reports video playback quartiles, not watch time.")
  },
  load: () => import("./adapter.ts")
})
