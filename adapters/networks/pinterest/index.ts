import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/** Pinterest: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "pinterest",
  label: "Pinterest",
  describe:
    "Pinterest: OAuth with PINTEREST_CLIENT_ID/PINTEREST_CLIENT_SECRET; a pin of up to 5 images or one video, to a board (GET /accounts/{id}/boards).",
  rules: {
    textLimit: 500,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 5,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: false,
    firstCommentLimit: 0,
    cover: true,
    videoMaxSeconds: null,
    source: "Pinterest API v5 pins; 2026-11-21"
  },
  config,
  renews: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("IMPRESSION"),
    likes: none("Pinterest reports no likes on a pin."),
    replies: none("Pinterest's pin analytics count no comments."),
    reposts: none("Pinterest's saves are its reposts; see saves."),
    saves: from("SAVE"),
    clicks: from("OUTBOUND_CLICK"),
    watchTimeSeconds: none("Pinterest reports average, not total, watch time.")
  },
  boards: true,
  unpublishes: true,
  load: () => import("./adapter.ts")
})
