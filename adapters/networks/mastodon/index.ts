import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { connectForm } from "./connectForm.ts"
import { appsMigration } from "./apps.ts"
import { config, METRICS_BATCH } from "./config.ts"

/**
 * Mastodon, on any instance a person names: see config.ts for its settings, adapter.ts for how it
 * connects and publishes. The rules row holds Mastodon's defaults; each instance's own limits
 * (GET /api/v2/instance) are checked when a status goes out and told in the dry run.
 */
export const network = declareNetwork({
  platform: "mastodon",
  label: "Mastodon",
  describe:
    "Mastodon: any instance, named with GET /connect/mastodon?instance=mastodon.social (Herald registers itself there), offered unless MASTODON_ENABLED=false; the instance's own limit (500 characters by default, a link counts 23), up to 4 images or one video, polls, content warnings and visibility (mastodon: {visibility, contentWarning}), threads, first comments.",
  rules: {
    textLimit: 500,
    textCounting: "mastodon",
    mediaRequired: false,
    maxImages: 4,
    maxVideos: 1,
    mixedMedia: false,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 500,
    cover: false,
    videoMaxSeconds: null,
    poll: { minOptions: 2, maxOptions: 4, maxOptionLength: 50, durationMinutes: { min: 5, max: 43_829 } },
    source:
      "Mastodon API POST /api/v1/statuses, StatusLengthValidator (500, links 23), PollValidator defaults; 2026-11-26"
  },
  config,
  renews: false,
  offeredWithoutSettings: true,
  unpublishes: true,
  metricsBatch: METRICS_BATCH,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: none("Mastodon counts no views."),
    likes: from("favourites_count"),
    replies: from("replies_count"),
    reposts: from("reblogs_count"),
    saves: none("Mastodon shows no one's bookmarks but the account's own."),
    clicks: none("Mastodon counts no link clicks."),
    watchTimeSeconds: none("Mastodon reports no watch time.")
  },
  migrations: { "0043_mastodon_apps": appsMigration },
  connectForm,
  load: () => import("./adapter.ts")
})
