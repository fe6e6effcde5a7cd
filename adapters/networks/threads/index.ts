import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config } from "./config.ts"

/** Threads: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "threads",
  label: "Threads",
  describe:
    "Threads: Threads Login with THREADS_CLIENT_ID/THREADS_CLIENT_SECRET; 500 characters, up to 20 images and videos, threads, first comments.",
  rules: {
    textLimit: 500,
    textCounting: "threads",
    mediaRequired: false,
    maxImages: 20,
    maxVideos: 20,
    mixedMedia: true,
    maxThreadReplies: 25,
    poll: null,
    firstComment: true,
    firstCommentLimit: 500,
    cover: false,
    videoMaxSeconds: 300,
    imageMaxBytes: 8 * 1024 * 1024,
    postsPer24Hours: 250,
    source:
      "Threads API posts reference (250 posts a moving 24 h) (500 characters, emojis counted as their UTF-8 bytes); polls withheld by the spec (X or LinkedIn only); 2026-11-21"
  },
  config,
  renews: true,
  unpublishes: true,
  // Meta's insights are read one post a call.
  metricsBatch: 1,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("views"),
    likes: from("likes"),
    replies: from("replies"),
    reposts: from("reposts", "quotes"),
    saves: none("Threads' media insights count no saves."),
    clicks: none("Threads counts link clicks per account, not per post."),
    watchTimeSeconds: none("Threads reports no watch time.")
  },
  load: () => import("./adapter.ts")
})
