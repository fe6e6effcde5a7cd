import { fail, type HeraldError } from "./errors.ts"
import type { Media } from "./media.ts"
import { networkRules } from "./networkRules.ts"
import type { CreatePostRequest } from "./postRequest.ts"
import type { PlannedTarget, Warnings } from "./plannedTarget.ts"

// Formats a post chooses on one network (an Instagram story, a TikTok draft): what each takes that
// the network's usual post does not. Refused when the post cannot be honoured as asked (an item or a
// comment would be lost); advised when the network only leaves something out (the caption).

/** Whether an Instagram target goes up as a story (instagram.story), not as a feed post, carousel or reel. */
export const isInstagramStory = (request: Pick<CreatePostRequest, "instagram">, target: PlannedTarget) =>
  target.account.platform === "instagram" && request.instagram?.story === true

/** Whether a TikTok target goes to the creator's inbox as a draft (tiktok.draft), not posted directly. */
export const isTiktokDraft = (request: Pick<CreatePostRequest, "tiktok">, target: PlannedTarget) =>
  target.account.platform === "tiktok" && request.tiktok?.draft === true

/** How far a video's shape may be from the recommended one before the dry run says so (rounding of encoders). */
export const ASPECT_TOLERANCE = 0.02

const offShape = (m: Media, aspect: { readonly width: number; readonly height: number }) =>
  m.width !== null &&
  m.height !== null &&
  Math.abs(m.width / m.height - aspect.width / aspect.height) > ASPECT_TOLERANCE

const refused = (fields: ReadonlyArray<string>, targets: ReadonlyArray<PlannedTarget>, message: string) =>
  fail(
    "validation_failed",
    { fields: [...new Set(fields)], accountIds: targets.map((t) => t.account.id), platforms: ["instagram"] },
    message
  )

/** Instagram stories: one image or video and no first comment (refused); no caption or cover (advised). */
export const checkInstagram = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  field: (t: PlannedTarget, name: "content" | "mediaIds" | "firstComment") => string,
  warnings: Warnings
): HeraldError | null => {
  const instagramTargets = planned.filter((t) => t.account.platform === "instagram")
  if (instagramTargets.length === 0) {
    if (request.instagram != null) warnings.post("instagram is ignored: no Instagram account is targeted.")
    return null
  }
  const stories = instagramTargets.filter((t) => isInstagramStory(request, t))
  const many = stories.filter((t) => t.media.length !== 1)
  if (many.length > 0)
    return refused(
      ["instagram.story", field(many[0]!, "mediaIds")],
      many,
      "An Instagram story is one image or one video (no carousel): give the Instagram target one upload (overrides.instagram.mediaIds), or leave instagram.story out."
    )
  const commented = stories.filter((t) => t.firstComment !== null)
  if (commented.length > 0)
    return refused(
      ["instagram.story", field(commented[0]!, "firstComment")],
      commented,
      "Instagram stories take no comments: set overrides.instagram.firstComment to null, or leave instagram.story out."
    )
  const rules = networkRules.instagram.story!
  for (const story of stories) {
    if (story.content.trim() !== "")
      warnings.target(
        story,
        'Instagram stories show no caption: the text is not sent to Instagram (overrides.instagram.content: "" says so).'
      )
    if (request.cover !== null) warnings.target(story, "Instagram stories take no cover: Herald sends none.")
    const only = story.media[0]!
    const seconds = only.type === "video" && only.durationMs !== null ? only.durationMs / 1000 : null
    if (seconds !== null && (seconds < rules.minSeconds || seconds > rules.maxSeconds))
      warnings.target(
        story,
        `Instagram story videos run ${rules.minSeconds}-${rules.maxSeconds} s: this one runs ${Math.round(seconds * 10) / 10} s, and Instagram may refuse it.`
      )
    if (offShape(only, rules.aspect))
      warnings.target(
        story,
        `Instagram recommends vertical ${rules.aspect.width}:${rules.aspect.height} stories (1080×1920): this ${only.type} is ${only.width}×${only.height}, and Instagram fits it inside the frame.`
      )
  }
  return null
}

/** The TikTok settings a draft does not take: the creator sets them in the app. */
const draftIgnores = (request: CreatePostRequest) =>
  [
    request.tiktok?.privacyLevel !== undefined ? "tiktok.privacyLevel" : null,
    request.tiktok?.brandedContent !== undefined ? "tiktok.brandedContent" : null,
    request.tiktokAiGenerated ? "tiktokAiGenerated" : null,
    request.cover !== null ? "cover" : null
  ].filter((name) => name !== null)

/**
 * TikTok drafts (Upload to inbox): one video (refused otherwise: photos and posts without video are
 * direct posts' only); what the creator sets in the app is advised as ignored.
 */
export const checkTiktokDraft = (
  request: CreatePostRequest,
  tiktokTargets: ReadonlyArray<PlannedTarget>,
  field: (t: PlannedTarget, name: "mediaIds") => string,
  warnings: Warnings
): HeraldError | null => {
  const drafts = tiktokTargets.filter((t) => isTiktokDraft(request, t))
  const notOneVideo = drafts.filter((t) => t.media.length !== 1 || t.media[0]!.type !== "video")
  if (notOneVideo.length > 0)
    return fail(
      "validation_failed",
      {
        fields: ["tiktok.draft", field(notOneVideo[0]!, "mediaIds")],
        accountIds: notOneVideo.map((t) => t.account.id),
        platforms: ["tiktok"]
      },
      "A TikTok draft is one video (TikTok's upload to the inbox takes videos): give the TikTok target one video, or leave tiktok.draft out."
    )
  const ignored = draftIgnores(request)
  for (const draft of drafts) {
    warnings.target(
      draft,
      "The TikTok video goes to the creator's TikTok inbox as a draft: they finish and post it in the app. Herald marks the target published, with no URL, once TikTok has delivered it."
    )
    if (draft.content.trim() !== "")
      warnings.target(draft, "A TikTok draft carries no caption: the creator writes it in the app.")
    if (ignored.length > 0)
      warnings.target(draft, `A TikTok draft ignores ${ignored.join(", ")}: the creator sets these in the app.`)
  }
  return null
}
