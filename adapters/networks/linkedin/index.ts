import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/** LinkedIn: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "linkedin",
  label: "LinkedIn",
  describe:
    "LinkedIn: a member and the pages they administer, OAuth with LINKEDIN_CLIENT_ID/LINKEDIN_CLIENT_SECRET; 3,000 characters, up to 20 images or one video, polls, first comments.",
  rules: {
    textLimit: 3000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    firstComment: true,
    firstCommentLimit: 1250,
    cover: true,
    coverKinds: ["image"],
    videoMaxSeconds: 1800,
    videoMinSeconds: 3,
    poll: {
      minOptions: 2,
      maxOptions: 4,
      maxOptionLength: 30,
      durationMinutes: [1 * 24 * 60, 3 * 24 * 60, 7 * 24 * 60, 14 * 24 * 60],
      maxQuestionLength: 140
    },
    source: "LinkedIn Posts API (community management); 2026-11-21"
  },
  config,
  renews: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("IMPRESSION", "impressionCount"),
    likes: from("REACTION", "likeCount"),
    replies: from("COMMENT", "commentCount"),
    reposts: from("RESHARE", "shareCount"),
    saves: none("LinkedIn's post analytics count no saves."),
    clicks: from("clickCount"),
    watchTimeSeconds: none("LinkedIn's video analytics are a separate API Herald does not read.")
  },
  load: () => import("./adapter.ts")
})
