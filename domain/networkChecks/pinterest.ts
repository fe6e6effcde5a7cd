import { type HeraldError, invalidFields } from "../errors.ts"
import type { PlannedTarget, Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"
import { countUpTo } from "../text.ts"

/** Pinterest's pin limits (API v5 pins/create: title 100, link 2,048). */
export const pinterestLimits = { title: 100, link: 2048 } as const

export const checkPinterest = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  warnings: Warnings
): HeraldError | null => {
  const options = request.pinterest
  const pinterestTargets = planned.filter((t) => t.account.platform === "pinterest")
  if (pinterestTargets.length === 0) {
    if (options !== null) warnings.post("pinterest is ignored: no Pinterest account is targeted.")
    return null
  }
  if (options?.title !== undefined && countUpTo(options.title, pinterestLimits.title) > pinterestLimits.title)
    return invalidFields(["pinterest.title"], `Pinterest titles take at most ${pinterestLimits.title} characters.`)
  if (options?.link !== undefined && countUpTo(options.link, pinterestLimits.link) > pinterestLimits.link)
    return invalidFields(["pinterest.link"], `Pinterest links take at most ${pinterestLimits.link} characters.`)
  for (const pinterest of pinterestTargets) {
    const images = pinterest.media.filter((m) => m.type === "image")
    if (images.length > 1 && images.some((m) => m.width !== images[0].width || m.height !== images[0].height))
      warnings.target(
        pinterest,
        "Pinterest carousels want images of one size: these differ, and Pinterest may refuse or crop them."
      )
    if (options?.boardId === undefined)
      warnings.target(
        pinterest,
        "No pinterest.boardId: the pin goes to the account's first board (GET /accounts/{id}/boards lists them)."
      )
  }
  return null
}
