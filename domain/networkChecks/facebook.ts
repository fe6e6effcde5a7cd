import { type HeraldError, invalidFields } from "../errors.ts"
import { ASPECT_TOLERANCE } from "../formatRules.ts"
import { networkRules } from "../networkRules.ts"
import { type PlannedTarget, videosOf, type Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"

/** Whether a Facebook target goes up as a reel (facebook.reel), not as a Page video. */
export const isFacebookReel = (request: Pick<CreatePostRequest, "facebook">, target: PlannedTarget) =>
  target.account.platform === "facebook" && request.facebook?.reel === true

export const checkFacebook = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  warnings: Warnings
): HeraldError | null => {
  const facebookTargets = planned.filter((t) => t.account.platform === "facebook")
  if (facebookTargets.length === 0) {
    if (request.facebook !== null) warnings.post("facebook is ignored: no Facebook account is targeted.")
    return null
  }
  const reels = facebookTargets.filter((t) => isFacebookReel(request, t))
  if (reels.some((t) => videosOf(t).length === 0))
    return invalidFields(
      ["facebook.reel"],
      "A Facebook reel is one video: add a video upload for the Facebook target, or leave facebook.reel out."
    )
  const rules = networkRules.facebook.reel!
  for (const reel of reels) {
    const video = videosOf(reel)[0]
    const seconds = video.durationMs === null ? null : video.durationMs / 1000
    if (seconds !== null && (seconds < rules.minSeconds || seconds > rules.maxSeconds))
      warnings.target(
        reel,
        `Facebook reels run ${rules.minSeconds}-${rules.maxSeconds} s: this video runs ${Math.round(seconds * 10) / 10} s, and Facebook may refuse it.`
      )
    const { width, height } = video
    if (
      width !== null &&
      height !== null &&
      Math.abs(width / height - rules.aspect.width / rules.aspect.height) > ASPECT_TOLERANCE
    )
      warnings.target(
        reel,
        `Facebook recommends vertical ${rules.aspect.width}:${rules.aspect.height} reels (1080×1920): this video is ${width}×${height}.`
      )
    if (request.cover !== null)
      warnings.target(reel, "Herald sends no cover with a Facebook reel: the reel shows the frame Facebook picks.")
  }
  return null
}
