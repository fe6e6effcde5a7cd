import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config, METRICS_BATCH } from "./config.ts"

/**
 * Reddit: see config.ts for its settings, adapter.ts for how it connects and publishes. Each post
 * names its subreddit (reddit: {subreddit}); the subreddit's own rules are read and checked when the
 * post goes out and told in the dry run.
 */
export const network = declareNetwork({
  platform: "reddit",
  label: "Reddit",
  describe:
    "Reddit: OAuth with REDDIT_CLIENT_ID/REDDIT_CLIENT_SECRET (a web app); a text, link or one-image post to the subreddit the post names (reddit: {subreddit, title, kind, url, flairId}; the title is the text's first line unless reddit.title is set), checked against the subreddit's rules; first comments.",
  rules: {
    textLimit: 40_000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 1,
    maxVideos: 0,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 10_000,
    cover: false,
    videoMaxSeconds: null,
    source: "Reddit API POST /api/submit (title 300, self text 40,000), POST /api/comment (10,000); 2026-11-26"
  },
  config,
  renews: true,
  // Its "boards" are the subreddits the account knows (GET /subreddits/mine/*): a post's reddit.subreddit.
  boards: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: none("Reddit's API gives no view counts."),
    likes: from("score"),
    replies: from("num_comments"),
    reposts: none("Reddit's API counts no crossposts of a post."),
    saves: none("Reddit shows no one's saves but the account's own."),
    clicks: none("Reddit counts no link clicks."),
    watchTimeSeconds: none("Reddit reports no watch time.")
  },
  load: () => import("./adapter.ts")
})
