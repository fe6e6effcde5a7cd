import type { HeraldError } from "../errors.ts"
import { checkInstagram } from "../formatRules.ts"
import type { Media } from "../media.ts"
import type { PlannedTarget, TargetField, Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"
import { checkRedditTargets } from "../redditPost.ts"
import { checkFacebook } from "./facebook.ts"
import { checkMastodon } from "./mastodon.ts"
import { checkPinterest } from "./pinterest.ts"
import { checkTiktok } from "./tiktok.ts"
import { checkYoutube } from "./youtube.ts"

/**
 * Each network's own options (request.youtube, request.tiktok...) against its targets, in a fixed order;
 * first failure wins. Options for a network no target is on are ignored, with a warning.
 */
export const checkNetworkOptions = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  cover: Media | null,
  field: TargetField,
  warnings: Warnings
): HeraldError | null => {
  const problem =
    checkTiktok(request, planned, field, warnings) ??
    checkYoutube(request, planned, cover, warnings) ??
    checkPinterest(request, planned, warnings) ??
    checkFacebook(request, planned, warnings) ??
    checkInstagram(request, planned, field, warnings) ??
    checkMastodon(request, planned, warnings)
  if (problem !== null) return problem
  if (request.discord != null && !planned.some((t) => t.account.platform === "discord"))
    warnings.post("discord is ignored: no Discord account is targeted.")
  if (request.googleBusiness != null && !planned.some((t) => t.account.platform === "google_business"))
    warnings.post("googleBusiness is ignored: no Google Business Profile account is targeted.")
  const redditTargets = planned.filter((t) => t.account.platform === "reddit")
  if (request.reddit != null && redditTargets.length === 0)
    warnings.post("reddit is ignored: no Reddit account is targeted.")
  return checkRedditTargets(request.reddit, redditTargets, field, warnings.target)
}
