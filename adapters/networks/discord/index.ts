import { declareNetwork } from "../shared/declaration.ts"
import { connectForm } from "./connectForm.ts"
import { config } from "./config.ts"

/**
 * Discord, through a channel webhook the person pastes (no bot, no OAuth): see webhook.ts for the
 * calls, adapter.ts for how it connects and publishes. Offered unless DISCORD_ENABLED=false.
 */
export const network = declareNetwork({
  platform: "discord",
  label: "Discord",
  describe:
    "Discord: a channel's webhook URL pasted on Herald's form (no bot, no app to register), offered unless DISCORD_ENABLED=false; 2000 characters, up to 10 attachments (25 MB a message), polls, forum posts (discord: {threadName}), threads and first comments as follow-up messages; never pings @everyone.",
  rules: {
    textLimit: 2000,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 10,
    maxVideos: 10,
    mixedMedia: true,
    maxThreadReplies: 25,
    firstComment: true,
    firstCommentLimit: 2000,
    cover: false,
    videoMaxSeconds: null,
    // Discord takes whole hours; these are the durations its own client offers.
    poll: {
      minOptions: 1,
      maxOptions: 10,
      maxOptionLength: 55,
      maxQuestionLength: 300,
      durationMinutes: [60, 240, 480, 1440, 4320, 10_080, 20_160]
    },
    source:
      "Discord API Execute Webhook (content 2000, 10 files), Poll object (10 answers of 55, 300, hours); 2026-11-26"
  },
  config,
  renews: false,
  offeredWithoutSettings: true,
  unpublishes: true,
  connectForm,
  load: () => import("./adapter.ts")
})
