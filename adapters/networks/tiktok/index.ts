import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/** TikTok: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "tiktok",
  label: "TikTok",
  describe: `TikTok: Login Kit with TIKTOK_CLIENT_KEY/TIKTOK_CLIENT_SECRET; one video or up to 35 photos, Direct Post with the creator's privacy and interaction settings, or one video as a draft to the creator's inbox (tiktok: {draft: true}).`,
  rules: {
    textLimit: 2200,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 35,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: false,
    firstCommentLimit: 0,
    cover: true,
    coverKinds: ["offset"],
    videoMaxSeconds: 600,
    videoMinSeconds: 3,
    postsPer24Hours: 15,
    source: "TikTok Content Posting API (about 15 posts a day per creator, third-party figure); 2026-11-21"
  },
  config,
  renews: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("view_count"),
    likes: from("like_count"),
    replies: from("comment_count"),
    reposts: from("share_count"),
    saves: none("TikTok's Display API gives no save count."),
    clicks: none("TikTok's Display API gives no click count."),
    watchTimeSeconds: none("TikTok's Display API gives no watch time.")
  },
  load: () => import("./adapter.ts")
})
