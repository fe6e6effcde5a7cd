import { none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { config } from "./config.ts"

const noInsights =
  "Google retired the v4 localPosts:reportInsights the Business Profile posts' figures came from, and its Performance API counts a location's, not a post's."

/** Google Business Profile: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "google_business",
  label: "Google Business Profile",
  describe:
    "Google Business Profile: Google OAuth with GOOGLE_BUSINESS_CLIENT_ID/GOOGLE_BUSINESS_CLIENT_SECRET (its own client, apart from YouTube's); every location the person manages becomes an account; a local post of up to 1,500 characters with one image, an update, event or offer with a call to action (googleBusiness: {topicType, callToAction, event, offer}).",
  rules: {
    textLimit: 1500,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 1,
    maxVideos: 0,
    mixedMedia: false,
    maxThreadReplies: 0,
    poll: null,
    firstComment: false,
    firstCommentLimit: 0,
    cover: false,
    videoMaxSeconds: null,
    // Business Profile photos: JPG or PNG, 10 KB to 5 MB (Google fetches them from sourceUrl).
    imageFormats: ["image/jpeg", "image/png"],
    imageMaxBytes: 5 * 1024 * 1024,
    source: "Google My Business API v4 accounts.locations.localPosts (summary 1500, one PHOTO by sourceUrl); 2026-11-26"
  },
  config,
  renews: true,
  unpublishes: true,
  metricSources: {
    views: none(noInsights),
    likes: none("Business Profile posts have no likes."),
    replies: none("Business Profile posts take no replies."),
    reposts: none("Business Profile posts have no reposts."),
    saves: none("Business Profile posts have no saves."),
    clicks: none(noInsights),
    watchTimeSeconds: none("Business Profile posts carry no video.")
  },
  load: () => import("./adapter.ts")
})
