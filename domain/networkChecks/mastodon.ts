import { type HeraldError, invalidFields } from "../errors.ts"
import { networkRules, textLength } from "../networkRules.ts"
import type { PlannedTarget, Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"

/**
 * Mastodon counts a status's content warning with its text (and Herald gives thread replies and first
 * comments their post's warning): each of a Mastodon target's texts with the warning fits the row's limit.
 */
export const checkMastodon = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  warnings: Warnings
): HeraldError | null => {
  const mastodonTargets = planned.filter((t) => t.account.platform === "mastodon")
  if (mastodonTargets.length === 0) {
    if (request.mastodon != null) warnings.post("mastodon is ignored: no Mastodon account is targeted.")
    return null
  }
  const warning = request.mastodon?.contentWarning?.trim() ?? ""
  if (warning === "") return null
  const { textLimit, textCounting } = networkRules.mastodon
  for (const t of mastodonTargets)
    for (const text of [t.content, ...t.thread, ...(t.firstComment === null ? [] : [t.firstComment])])
      if (textLength(`${warning}${text}`, textCounting, textLimit) > textLimit)
        return invalidFields(
          ["mastodon.contentWarning"],
          `Mastodon counts the content warning with the text: together they take at most ${textLimit} characters.`
        )
  return null
}
