import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/** YouTube: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "youtube",
  label: "YouTube",
  describe: `YouTube: Google OAuth with YOUTUBE_CLIENT_ID/YOUTUBE_CLIENT_SECRET; one video with title, description, thumbnail and first comment, within the project's daily quota; a square or vertical video of at most 3 minutes becomes a Short (the dry run says which).`,
  rules: {
    textLimit: 5000,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 0,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 10_000,
    cover: true,
    coverKinds: ["image"],
    videoMaxSeconds: 900,
    source: "YouTube Data API v3 videos.insert; 2026-11-21"
  },
  config,
  renews: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("viewCount"),
    likes: from("likeCount"),
    replies: from("commentCount"),
    reposts: none("YouTube has no reposts."),
    saves: none("YouTube's favoriteCount is deprecated and always 0."),
    clicks: none("YouTube's Data API gives no click count."),
    watchTimeSeconds: none("Watch time needs the YouTube Analytics API, which Herald does not read.")
  },
  load: () => import("./adapter.ts")
})
