import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { isInstagramStory } from "./formatRules.ts"
import { isFacebookReel } from "./networkChecks/facebook.ts"
import { networkRules, textLength } from "./networkRules.ts"
import { imagesOf, type PlannedTarget, videosOf } from "./plannedTarget.ts"
import { platformNames } from "./platforms.ts"
import type { CreatePostRequest } from "./postRequest.ts"
import { countUpTo } from "./text.ts"

/** One target's text lengths, media counts and poll against its network's row of the table. */
export const checkTargetLimits = (
  request: CreatePostRequest,
  target: PlannedTarget,
  field: (name: "content" | "thread" | "firstComment" | "mediaIds") => string,
  warn: (message: string) => void
): HeraldError | null => {
  const account = target.account
  const rules = networkRules[account.platform]
  const name = platformNames[account.platform]
  const tooLong = (text: string, limit: number, fieldName: string) =>
    textLength(text, rules.textCounting, limit) > limit
      ? fail(
          "validation_failed",
          { fields: [fieldName], accountId: account.id, platform: account.platform, limit },
          `${fieldName} is longer than ${name} allows (${limit}).`
        )
      : null
  const textProblem =
    tooLong(target.content, rules.textLimit, field("content")) ??
    target.thread.map((t, i) => tooLong(t, rules.textLimit, `${field("thread")}[${i}]`)).find((r) => r !== null) ??
    (target.firstComment !== null ? tooLong(target.firstComment, rules.firstCommentLimit, field("firstComment")) : null)
  if (textProblem) return textProblem
  const images = imagesOf(target)
  const videos = videosOf(target)
  if (
    images.length > rules.maxImages ||
    videos.length > rules.maxVideos ||
    (!rules.mixedMedia && images.length > 0 && videos.length > 0)
  )
    return fail(
      "validation_failed",
      {
        fields: [field("mediaIds")],
        accountId: account.id,
        platform: account.platform,
        maxImages: rules.maxImages,
        maxVideos: rules.maxVideos,
        mixedMedia: rules.mixedMedia
      },
      `${name} takes at most ${rules.maxImages} images or ${rules.maxVideos} video(s)${rules.mixedMedia ? "" : ", not mixed"}.`
    )
  // A reel's and a story's length are their own rules (checkFacebook, checkInstagram).
  const story = isInstagramStory(request, target)
  if (
    !isFacebookReel(request, target) &&
    !story &&
    rules.videoMaxSeconds !== null &&
    videos.some((v) => v.durationMs !== null && v.durationMs > rules.videoMaxSeconds! * 1000)
  )
    warn(`${name} may refuse videos longer than ${rules.videoMaxSeconds} s.`)
  if (
    rules.videoMinSeconds !== undefined &&
    videos.some((v) => v.durationMs !== null && v.durationMs < rules.videoMinSeconds! * 1000)
  )
    warn(`${name} refuses videos shorter than ${rules.videoMinSeconds} s.`)
  if (rules.imageMaxBytes !== undefined && images.some((m) => m.sizeBytes > rules.imageMaxBytes!))
    warn(`${name} refuses images larger than ${Math.round(rules.imageMaxBytes / (1024 * 1024))} MB.`)
  if (request.poll !== null && rules.poll !== null) {
    const p = rules.poll
    const poll = request.poll
    if (
      poll.options.length < p.minOptions ||
      poll.options.length > p.maxOptions ||
      poll.options.some((o) => o.trim() === "" || countUpTo(o, p.maxOptionLength) > p.maxOptionLength)
    )
      return fail(
        "validation_failed",
        {
          fields: ["poll.options"],
          platform: account.platform,
          minOptions: p.minOptions,
          maxOptions: p.maxOptions,
          maxOptionLength: p.maxOptionLength
        },
        `${name} polls take ${p.minOptions}-${p.maxOptions} options of at most ${p.maxOptionLength} characters.`
      )
    const d = p.durationMinutes
    const okDuration = Array.isArray(d)
      ? d.includes(poll.durationMinutes)
      : poll.durationMinutes >= (d as { min: number }).min && poll.durationMinutes <= (d as { max: number }).max
    if (!okDuration)
      return fail(
        "validation_failed",
        { fields: ["poll.durationMinutes"], platform: account.platform, allowed: d },
        `${name} does not accept a poll of ${poll.durationMinutes} minutes.`
      )
    if (poll.question !== undefined && p.maxQuestionLength === undefined && account.platform !== "sandbox")
      warn(`poll.question applies to LinkedIn only; ${name} ignores it.`)
    if (
      poll.question !== undefined &&
      p.maxQuestionLength !== undefined &&
      countUpTo(poll.question, p.maxQuestionLength) > p.maxQuestionLength
    )
      return invalidFields(["poll.question"], `${name} poll questions take at most ${p.maxQuestionLength} characters.`)
    // A network that asks a question (LinkedIn) without one asks the post's text, which must fit.
    if (
      poll.question === undefined &&
      p.maxQuestionLength !== undefined &&
      (target.content.trim() === "" || countUpTo(target.content, p.maxQuestionLength) > p.maxQuestionLength)
    )
      return invalidFields(
        ["poll.question"],
        `${name} polls need a question of at most ${p.maxQuestionLength} characters: send poll.question, or keep the post's text that short to ask it.`
      )
  }
  if (account.platform === "instagram" && !story && (target.content.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0) > 30)
    warn("Instagram refuses captions with more than 30 hashtags.")
  // A format the network refuses goes as a converted copy (its publisher makes it); a shape is refused here, never failed later.
  const formats = rules.imageFormats
  if (formats !== undefined && images.some((m) => !formats.includes(m.mimeType)))
    warn(
      `${name} takes ${formats.map((f) => f.replace("image/", "").toUpperCase()).join(" or ")} images only: Herald sends the others as converted copies.`
    )
  // A story takes any shape (Instagram fits it in the frame); checkInstagram advises on it.
  const shape = story ? undefined : rules.imageAspect
  const misshapen =
    shape === undefined
      ? undefined
      : images.find((m) => m.width !== null && m.height !== null && !within(m.width / m.height, shape))
  if (shape !== undefined && misshapen !== undefined)
    return invalidFields(
      ["mediaIds"],
      `${name} takes images from ${shape.min} to ${shape.max} wide for 1 high; ${misshapen.id} is ${misshapen.width}x${misshapen.height}: crop it to that shape.`
    )
  return null
}

/** Whether a ratio is within a network's range, allowing the rounding of a pixel. */
const within = (ratio: number, range: { readonly min: number; readonly max: number }) =>
  ratio >= range.min - 0.005 && ratio <= range.max + 0.005
