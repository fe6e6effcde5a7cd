import { declareNetwork } from "../shared/declaration.ts"
import { connectForm } from "./connectForm.ts"
import { config } from "./config.ts"

/**
 * Telegram channels and groups, posted to by the person's own bot (a token from @BotFather, made an
 * administrator of the chat): see config.ts for its settings, adapter.ts for how it connects and publishes.
 */
export const network = declareNetwork({
  platform: "telegram",
  label: "Telegram",
  describe:
    "Telegram: a channel or group, posted to by your own bot (its token from @BotFather and the chat's @username or id, on Herald's form; the bot must be an administrator allowed to post), offered unless TELEGRAM_ENABLED=false; 4096 characters (1024 as a media caption), up to 10 photos and videos as an album, polls (closing after 1-10 minutes), threads and first comments as replies.",
  rules: {
    textLimit: 4096,
    textCounting: "chars",
    mediaRequired: false,
    maxImages: 10,
    maxVideos: 10,
    mixedMedia: true,
    maxThreadReplies: 25,
    // A bot's poll closes itself at most 600 s after it is sent (open_period 5-600).
    poll: {
      minOptions: 2,
      maxOptions: 10,
      maxOptionLength: 100,
      durationMinutes: { min: 1, max: 10 },
      maxQuestionLength: 300
    },
    firstComment: true,
    firstCommentLimit: 4096,
    cover: false,
    videoMaxSeconds: null,
    // Bot API uploads: photos up to 10 MB (videos up to 50 MB, checked by the adapter).
    imageMaxBytes: 10 * 1024 * 1024,
    source:
      "Telegram Bot API sendMessage (4096), sendPhoto/sendVideo (caption 1024), sendMediaGroup (2-10), sendPoll (question 300, 2-10 options of 100, open_period 5-600); 2026-11-26"
  },
  config,
  renews: false,
  offeredWithoutSettings: true,
  connectForm,
  load: () => import("./adapter.ts")
})
