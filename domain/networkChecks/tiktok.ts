import { fail, type HeraldError } from "../errors.ts"
import { checkTiktokDraft } from "../formatRules.ts"
import { imagesOf, type PlannedTarget, refusal, type TargetField, videosOf, type Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"

/** TikTok's options: the AI label on videos only, drafts, branded content never private, JPEG or WebP photos. */
export const checkTiktok = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  field: TargetField,
  warnings: Warnings
): HeraldError | null => {
  const tiktokTargets = planned.filter((t) => t.account.platform === "tiktok")
  if (tiktokTargets.length === 0) {
    if (request.tiktokAiGenerated) warnings.post("tiktokAiGenerated is ignored: no TikTok account is targeted.")
    return null
  }
  if (request.tiktokAiGenerated && tiktokTargets.some((t) => videosOf(t).length === 0))
    return refusal("tiktok_ai_unsupported", tiktokTargets, {
      reason: "The AI-generated label applies to videos only."
    })
  const draftProblem = checkTiktokDraft(request, tiktokTargets, field, warnings)
  if (draftProblem !== null) return draftProblem
  const t = request.tiktok
  if (t?.draft !== true && t?.brandedContent === true && t.privacyLevel === "SELF_ONLY")
    return refusal("tiktok_privacy_conflict", tiktokTargets, {
      reason: "Branded content cannot be private (SELF_ONLY)."
    })
  // TikTok photo posts take JPEG and WebP only.
  if (
    tiktokTargets.some((target) =>
      imagesOf(target).some((m) => m.mimeType !== "image/jpeg" && m.mimeType !== "image/webp")
    )
  )
    return fail(
      "validation_failed",
      {
        fields: [field(tiktokTargets[0], "mediaIds")],
        accountIds: tiktokTargets.map((target) => target.account.id),
        platform: "tiktok"
      },
      "TikTok photo posts take JPEG or WebP images only."
    )
  if (t?.privacyLevel === undefined && t?.draft !== true)
    for (const target of tiktokTargets)
      warnings.target(
        target,
        "No tiktok.privacyLevel: the post goes out with the most public level the creator allows when it is published."
      )
  return null
}
