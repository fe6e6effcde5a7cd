import { Effect } from "effect"
import { PublishError, type PublishRequest } from "../../../application/ports/Publishers.ts"
import { firstLine } from "../../../domain/networkChecks/youtube.ts"
import type { CreatorInfo, PostInfo } from "./api.ts"
import { privacyConflict } from "./errors.ts"

/** Without tiktok.privacyLevel, the most public level the creator allows. */
const PREFERENCE = ["PUBLIC_TO_EVERYONE", "FOLLOWER_OF_CREATOR", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"]
/** TikTok's caps: video captions 2,200; photo titles 90 and descriptions 4,000. */
const PHOTO_TITLE = 90

const cut = (text: string, max: number) => ([...text].length <= max ? text : `${[...text].slice(0, max - 1).join("")}…`)

/**
 * The post's TikTok settings from what the creator allows now (creator info, read before every
 * post): the privacy level asked for must be one the creator offers (else tiktok_privacy_conflict),
 * comments, duets and stitches stay off where the creator turned them off, the AI label goes on
 * videos only, and branded content cannot be private.
 */
export const postInfoOf = (
  request: PublishRequest,
  info: CreatorInfo,
  photo: boolean
): Effect.Effect<PostInfo, PublishError> => {
  const options = request.options?.tiktok
  const allowed = info.privacy_level_options
  const wanted = options?.privacyLevel
  if (wanted !== undefined && !allowed.includes(wanted))
    return Effect.fail(
      privacyConflict(
        `TikTok lets @${info.creator_username} post as ${allowed.join(", ") || "nothing"} now, not ${wanted}.`
      )
    )
  const level = wanted ?? PREFERENCE.find((p) => allowed.includes(p))
  if (level === undefined)
    return Effect.fail(privacyConflict(`TikTok offers @${info.creator_username} no privacy level to post with now.`))
  const branded = options?.brandedContent === true
  if (branded && level === "SELF_ONLY")
    return Effect.fail(privacyConflict("Branded content cannot be posted as SELF_ONLY (private) on TikTok."))
  if (photo && request.tiktokAiGenerated)
    return Effect.fail(
      PublishError.refused({
        code: "tiktok_ai_unsupported",
        message: "TikTok's AI-generated label applies to videos only."
      })
    )
  const shared = {
    privacy_level: level,
    disable_comment: info.comment_disabled,
    brand_content_toggle: branded,
    brand_organic_toggle: false
  }
  if (photo)
    return Effect.succeed({
      ...shared,
      title: cut(firstLine(request.content), PHOTO_TITLE),
      description: request.content,
      auto_add_music: true
    })
  const cover =
    request.cover !== null && "offsetMs" in request.cover ? { video_cover_timestamp_ms: request.cover.offsetMs } : {}
  return Effect.succeed({
    ...shared,
    title: request.content,
    disable_duet: info.duet_disabled,
    disable_stitch: info.stitch_disabled,
    is_aigc: request.tiktokAiGenerated,
    ...cover
  })
}
