import { type HeraldError, invalidFields } from "../errors.ts"
import type { Media } from "../media.ts"
import type { PlannedTarget, Warnings } from "../plannedTarget.ts"
import type { CreatePostRequest } from "../postRequest.ts"
import { countUpTo } from "../text.ts"

/** YouTube's title and tag limits (videos.insert: a 1-100 character title without < or >, 500 characters of tags). */
export const youtubeLimits = { title: 100, tags: 500, thumbnailBytes: 2 * 1024 * 1024 } as const

/** The text's first line, as a YouTube title is made when none is given. */
export const firstLine = (text: string) => text.trim().split(/\r?\n/)[0]?.trim() ?? ""

/** Tags as YouTube counts them: each with a comma after it, quoted when it has a space. */
const tagsLength = (tags: ReadonlyArray<string>) =>
  tags.reduce((n, t) => n + countUpTo(t, 1000) + (/\s/.test(t) ? 2 : 0) + 1, 0) - (tags.length > 0 ? 1 : 0)

export const checkYoutube = (
  request: CreatePostRequest,
  planned: ReadonlyArray<PlannedTarget>,
  cover: Media | null,
  warnings: Warnings
): HeraldError | null => {
  const options = request.youtube
  const youtubeTargets = planned.filter((t) => t.account.platform === "youtube")
  if (youtubeTargets.length === 0) {
    if (options !== null) warnings.post("youtube is ignored: no YouTube account is targeted.")
    return null
  }
  const title = options?.title
  if (title !== undefined && (countUpTo(title, youtubeLimits.title) > youtubeLimits.title || /[<>]/.test(title)))
    return invalidFields(["youtube.title"], `YouTube titles take 1-${youtubeLimits.title} characters, without < or >.`)
  if (options?.tags !== undefined && tagsLength(options.tags) > youtubeLimits.tags)
    return invalidFields(["youtube.tags"], `YouTube takes at most ${youtubeLimits.tags} characters of tags in all.`)
  if (
    cover !== null &&
    (cover.sizeBytes > youtubeLimits.thumbnailBytes || !["image/jpeg", "image/png"].includes(cover.mimeType))
  )
    return invalidFields(["cover.mediaId"], "YouTube thumbnails are JPEG or PNG images of at most 2 MB.")
  for (const youtube of youtubeTargets) {
    if (title === undefined && countUpTo(firstLine(youtube.content), youtubeLimits.title) > youtubeLimits.title)
      warnings.target(
        youtube,
        `The YouTube title is the text's first line cut to ${youtubeLimits.title} characters; set youtube.title to choose it.`
      )
    if (/[<>]/.test(youtube.content))
      warnings.target(youtube, "YouTube refuses < and > in descriptions: they are sent as ‹ and ›.")
  }
  return null
}
