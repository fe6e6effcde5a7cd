import { from, none } from "../../../domain/metrics.ts"
import { declareNetwork } from "../shared/declaration.ts"
import { enabled } from "./config.ts"

/** Instagram: see config.ts for its settings, adapter.ts for how it connects and publishes. */
export const network = declareNetwork({
  platform: "instagram",
  label: "Instagram",
  describe:
    "Instagram professional accounts, through Instagram Login (INSTAGRAM_*) or the Pages of Facebook Login (FACEBOOK_*); media required (JPEG images, converted if need be; aspect 4:5 to 1.91:1), carousels, reels, stories (instagram: {story: true}: one image or video, no caption), first comments.",
  rules: {
    textLimit: 2200,
    textCounting: "chars",
    mediaRequired: true,
    maxImages: 10,
    maxVideos: 10,
    mixedMedia: true,
    maxThreadReplies: 0,
    poll: null,
    firstComment: true,
    firstCommentLimit: 2196,
    cover: true,
    videoMaxSeconds: 90,
    imageFormats: ["image/jpeg"],
    imageAspect: { min: 0.8, max: 1.91 },
    story: { minSeconds: 3, maxSeconds: 60, aspect: { width: 9, height: 16 } },
    postsPer24Hours: 50,
    source:
      "Instagram Graph API content publishing (50 API-published posts a moving 24 h); stories: IG User Media media_type=STORIES (video 3-60 s, 9:16 recommended); 2026-11-26"
  },
  config: enabled,
  renews: true,
  // Meta's insights are read one post a call.
  metricsBatch: 1,
  // How its raw figures make the common set (domain/metrics.ts), or why one is never given.
  metricSources: {
    views: from("views"),
    likes: from("likes"),
    replies: from("comments"),
    reposts: from("shares"),
    saves: from("saved"),
    clicks: none("Instagram counts no link clicks on a post."),
    watchTimeSeconds: none("Instagram's watch time is a Reels-only metric Herald does not read.")
  },
  load: () => import("./adapter.ts")
})
