import type { Media } from "../../../domain/media.ts"

/** YouTube files a video as a Short by itself: square or vertical, and at most 3 minutes (no API flag asks for it). */
export const SHORTS_MAX_SECONDS = 180

const seconds = (ms: number) => Math.round(ms / 100) / 10

/**
 * What the dry run says of the post's video: whether YouTube will treat it as a Short, from the
 * upload's stored dimensions and length, or which of them Herald does not know.
 */
export const shortsAdvice = (media: ReadonlyArray<Media>): ReadonlyArray<string> => {
  const video = media.find((m) => m.type === "video")
  if (video === undefined) return []
  const { width, height, durationMs } = video
  const unknown = [
    width === null || height === null ? "dimensions" : null,
    durationMs === null ? "length" : null
  ].filter((what) => what !== null)
  if (unknown.length > 0)
    return [
      `YouTube files a video as a Short when it is square or vertical and at most 3 minutes; Herald does not know this video's ${unknown.join(" or ")}, so it cannot say which this one will be.`
    ]
  const shape = width! > height! ? "horizontal" : width === height ? "square" : "vertical"
  const long = durationMs! > SHORTS_MAX_SECONDS * 1000
  if (shape !== "horizontal" && !long)
    return [
      `YouTube will show this video as a Short: it is ${shape} (${width}×${height}) and runs ${seconds(durationMs!)} s, at most 3 minutes. Shorts have no flag in the API; shape and length decide.`
    ]
  const why = [
    shape === "horizontal" ? `it is horizontal (${width}×${height})` : null,
    long ? `it runs ${seconds(durationMs!)} s, over 3 minutes` : null
  ].filter((reason) => reason !== null)
  return [
    `YouTube will show this video as a regular video, not a Short: ${why.join(" and ")}. A Short is square or vertical and at most 3 minutes.`
  ]
}
