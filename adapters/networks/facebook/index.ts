import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { enabled } from "./config.ts"
import { reelsMigration } from "./reelsMigration.ts"

/** Facebook: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "facebook",
  label: "Facebook",
  describe:
    "Facebook Pages, Facebook Login with FACEBOOK_CLIENT_ID/FACEBOOK_CLIENT_SECRET (or FACEBOOK_CONFIG_ID for Login for Business); text, links, up to 10 images or one video or reel, first comments.",
  rules: {
    textLimit: 63_206,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 10,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 8000,
    cover: true,
    videoMaxSeconds: 90,
    reel: { minSeconds: 3, maxSeconds: 90, aspect: { width: 9, height: 16 }, perDay: 30 },
    source:
      "Facebook Pages API; reels: Video API Reels Publishing guide (3-90 s, 9:16, 30 API-published reels a moving 24 h); 2026-11-21"
  },
  config: enabled,
  renews: false,
  unpublishes: true,
  // Meta's insights are read one post a call.
  metricsBatch: 1,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("post_impressions"),
    likes: from("post_reactions_like_total"),
    replies: from("comments"),
    reposts: from("shares"),
    saves: none("Facebook's page post insights count no saves."),
    clicks: from("post_clicks"),
    watchTimeSeconds: none("Facebook's video watch time is a video insight Herald does not read.")
  },
  migrations: { "0041_facebook_reels": reelsMigration },
  load: () => import("./adapter.ts")
})
