import type { PublishRequest } from "../../../application/ports/Publishers.ts"
import type { Media } from "../../../domain/media.ts"
import { firstLine, youtubeLimits } from "../../../domain/networkChecks/youtube.ts"
import type { VideoMetadata } from "./api.ts"

/** YouTube refuses < and > in titles and descriptions: they go as look-alikes. */
const withoutAngles = (text: string) => text.replace(/</g, "‹").replace(/>/g, "›")

/** At most `max` characters, cut at a space when there is one in the last fifth, with an ellipsis. */
const cut = (text: string, max: number) => {
  const chars = [...text]
  if (chars.length <= max) return text
  const head = chars.slice(0, max - 1).join("")
  const space = head.lastIndexOf(" ")
  return `${space > (max * 4) / 5 ? head.slice(0, space) : head}…`
}

/** A title from the upload's file name, for a post without text. */
const fromFilename = (video: Media) => video.filename.replace(/\.[A-Za-z0-9]{1,5}$/, "").trim()

/**
 * videos.insert's snippet and status for a post: the title from `youtube.title`, else the text's
 * first line (cut to 100), else the file name; the text as the description; public and not made for
 * kids unless the post says otherwise.
 */
export const metadataOf = (request: PublishRequest, video: Media): VideoMetadata => {
  const options = request.options?.youtube
  const title =
    options?.title ??
    (cut(withoutAngles(firstLine(request.content)), youtubeLimits.title) ||
      cut(withoutAngles(fromFilename(video)), youtubeLimits.title) ||
      "Video")
  return {
    snippet: {
      title,
      description: withoutAngles(request.content),
      ...(options?.tags === undefined ? {} : { tags: options.tags })
    },
    status: {
      privacyStatus: options?.privacyStatus ?? "public",
      selfDeclaredMadeForKids: options?.madeForKids ?? false
    }
  }
}
