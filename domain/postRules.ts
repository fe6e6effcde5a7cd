import { Option, Result } from "effect"
import type { Account } from "./account.ts"
import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { isExpired, type Media } from "./media.ts"
import { networkRules, textLength } from "./networkRules.ts"
import { type Platform, platformNames } from "./platforms.ts"
import type { CreatePostRequest } from "./postRequest.ts"
import { countUpTo } from "./text.ts"
import { oneYearAfter, parseOffsetTime } from "./time.ts"

export interface RulesContext {
  readonly now: number
  /** Every account of the workspace (to tell "none connected" from "not found"). */
  readonly accounts: ReadonlyArray<Account>
  /** The media named by the request that exist in the workspace (missing ones are absent). */
  readonly media: ReadonlyArray<Media>
}

export interface CheckedPost {
  readonly scheduledFor: number | null
  readonly targets: ReadonlyArray<Account>
  readonly media: ReadonlyArray<Media>
  readonly warnings: ReadonlyArray<string>
}

/** Parses `scheduledFor`: strict ISO 8601 with an offset, in the future, under one year ahead. */
export const checkSchedule = (value: string | null, now: number): Result.Result<number | null, HeraldError> => {
  if (value === null) return Result.succeed(null)
  // No real time is this long; the parser never sees a huge string.
  const parsed = value.length > 64 ? Option.none() : parseOffsetTime(value)
  if (Option.isNone(parsed)) return Result.fail(fail("invalid_date", { fields: ["scheduledFor"], value }))
  if (parsed.value <= now) return Result.fail(fail("scheduled_in_past", { fields: ["scheduledFor"], value }))
  if (parsed.value >= oneYearAfter(now)) return Result.fail(fail("scheduled_too_far", { fields: ["scheduledFor"], value }))
  return Result.succeed(parsed.value)
}

const idsOf = (accounts: ReadonlyArray<Account>) => accounts.map((a) => a.id)

/** YouTube's title and tag limits (videos.insert: a 1-100 character title without < or >, 500 characters of tags). */
export const youtubeLimits = { title: 100, tags: 500, thumbnailBytes: 2 * 1024 * 1024 } as const

/** The text's first line, as a YouTube title is made when none is given. */
export const firstLine = (text: string) => text.trim().split(/\r?\n/)[0]?.trim() ?? ""

/** Tags as YouTube counts them: each with a comma after it, quoted when it has a space. */
const tagsLength = (tags: ReadonlyArray<string>) => tags.reduce((n, t) => n + countUpTo(t, 1000) + (/\s/.test(t) ? 2 : 0) + 1, 0) - (tags.length > 0 ? 1 : 0)

const checkYoutube = (request: CreatePostRequest, targets: ReadonlyArray<Account>, cover: Media | null, warnings: Array<string>): HeraldError | null => {
  const options = request.youtube
  const youtube = targets.some((a) => a.platform === "youtube")
  if (!youtube) {
    if (options !== null) warnings.push("youtube is ignored: no YouTube account is targeted.")
    return null
  }
  const title = options?.title
  if (title !== undefined && (countUpTo(title, youtubeLimits.title) > youtubeLimits.title || /[<>]/.test(title)))
    return invalidFields(["youtube.title"], `YouTube titles take 1-${youtubeLimits.title} characters, without < or >.`)
  if (options?.tags !== undefined && tagsLength(options.tags) > youtubeLimits.tags)
    return invalidFields(["youtube.tags"], `YouTube takes at most ${youtubeLimits.tags} characters of tags in all.`)
  if (cover !== null && (cover.sizeBytes > youtubeLimits.thumbnailBytes || !["image/jpeg", "image/png"].includes(cover.mimeType)))
    return invalidFields(["cover.mediaId"], "YouTube thumbnails are JPEG or PNG images of at most 2 MB.")
  if (title === undefined && countUpTo(firstLine(request.content), youtubeLimits.title) > youtubeLimits.title)
    warnings.push(`The YouTube title is the text's first line cut to ${youtubeLimits.title} characters; set youtube.title to choose it.`)
  if (/[<>]/.test(request.content)) warnings.push("YouTube refuses < and > in descriptions: they are sent as ‹ and ›.")
  return null
}

/** Pinterest's pin limits (API v5 pins/create: title 100, link 2,048). */
export const pinterestLimits = { title: 100, link: 2048 } as const

const checkPinterest = (request: CreatePostRequest, targets: ReadonlyArray<Account>, images: ReadonlyArray<Media>, warnings: Array<string>): HeraldError | null => {
  const options = request.pinterest
  if (!targets.some((a) => a.platform === "pinterest")) {
    if (options !== null) warnings.push("pinterest is ignored: no Pinterest account is targeted.")
    return null
  }
  if (options?.title !== undefined && countUpTo(options.title, pinterestLimits.title) > pinterestLimits.title)
    return invalidFields(["pinterest.title"], `Pinterest titles take at most ${pinterestLimits.title} characters.`)
  if (options?.link !== undefined && countUpTo(options.link, pinterestLimits.link) > pinterestLimits.link)
    return invalidFields(["pinterest.link"], `Pinterest links take at most ${pinterestLimits.link} characters.`)
  if (images.length > 1 && images.some((m) => m.width !== images[0].width || m.height !== images[0].height))
    warnings.push("Pinterest carousels want images of one size: these differ, and Pinterest may refuse or crop them.")
  if (options?.boardId === undefined) warnings.push("No pinterest.boardId: the pin goes to the account's first board (GET /accounts/{id}/boards lists them).")
  return null
}

/** Every rule of the spec and of the per-network table, in a fixed order; first failure wins. */
export const checkPost = (request: CreatePostRequest, ctx: RulesContext): Result.Result<CheckedPost, HeraldError> => {
  const schedule = checkSchedule(request.scheduledFor, ctx.now)
  if (Result.isFailure(schedule)) return Result.fail(schedule.failure)
  const scheduledFor = schedule.success

  if (ctx.accounts.length === 0) return Result.fail(fail("no_accounts_connected"))
  const byId = new Map(ctx.accounts.map((a) => [a.id, a]))
  const missingAccounts = request.accountIds.filter((id) => !byId.has(id))
  if (missingAccounts.length > 0) return Result.fail(fail("account_not_found", { accountIds: missingAccounts }))
  const targets = request.accountIds.map((id) => byId.get(id)!)
  const stale = targets.filter((a) => a.status !== "connected")
  if (stale.length > 0) return Result.fail(fail("account_needs_reconnection", { accountIds: idsOf(stale) }))

  const mediaById = new Map(ctx.media.map((m) => [m.id, m]))
  const coverId = request.cover && "mediaId" in request.cover ? request.cover.mediaId : null
  const wanted = coverId ? [...request.mediaIds, coverId] : request.mediaIds
  const missingMedia = wanted.filter((id) => !mediaById.has(id))
  if (missingMedia.length > 0) return Result.fail(fail("media_not_found", { mediaIds: [...new Set(missingMedia)] }))
  const expired = wanted.filter((id) => isExpired(mediaById.get(id)!, ctx.now))
  if (expired.length > 0) return Result.fail(fail("media_expired", { mediaIds: [...new Set(expired)] }))
  const media = request.mediaIds.map((id) => mediaById.get(id)!)
  const images = media.filter((m) => m.type === "image")
  const videos = media.filter((m) => m.type === "video")

  const unable = (check: (p: Platform) => boolean) => targets.filter((a) => !check(a.platform))
  const refuse = (code: Parameters<typeof fail>[0], accounts: ReadonlyArray<Account>, extra?: Record<string, unknown>) =>
    Result.fail(fail(code, { accountIds: idsOf(accounts), platforms: [...new Set(accounts.map((a) => a.platform))], ...extra }))

  const needMedia = media.length === 0 ? unable((p) => !networkRules[p].mediaRequired) : []
  if (needMedia.length > 0) return refuse("media_required", needMedia)
  if (request.thread.length > 0) {
    const no = unable((p) => networkRules[p].maxThreadReplies > 0)
    if (no.length > 0) return refuse("thread_unsupported", no)
    const tooMany = targets.filter((a) => request.thread.length > networkRules[a.platform].maxThreadReplies)
    if (tooMany.length > 0)
      return Result.fail(
        fail(
          "validation_failed",
          { fields: ["thread"], accountIds: idsOf(tooMany), maxThreadReplies: networkRules[tooMany[0].platform].maxThreadReplies },
          `${platformNames[tooMany[0].platform]} threads take at most ${networkRules[tooMany[0].platform].maxThreadReplies} replies.`
        )
      )
  }
  if (request.poll !== null) {
    const no = unable((p) => networkRules[p].poll !== null)
    if (no.length > 0) return refuse("poll_unsupported", no)
    if (media.length > 0) return refuse("poll_unsupported", targets, { reason: "A poll cannot be sent with media." })
  }
  if (request.firstComment !== null) {
    const no = unable((p) => networkRules[p].firstComment)
    if (no.length > 0) return refuse("first_comment_unsupported", no)
  }
  if (request.cover !== null) {
    const no = unable((p) => networkRules[p].cover)
    if (no.length > 0) return refuse("cover_unsupported", no)
    if (videos.length === 0) return Result.fail(invalidFields(["cover"], "A cover applies to a video; add a video upload."))
    if (coverId !== null && mediaById.get(coverId)!.type !== "image") return Result.fail(invalidFields(["cover.mediaId"], "cover.mediaId must be an image upload."))
    const kind = coverId !== null ? "image" : "offset"
    const otherKind = targets.filter((a) => !(networkRules[a.platform].coverKinds ?? ["image", "offset"]).includes(kind))
    if (otherKind.length > 0)
      return refuse("cover_unsupported", otherKind, {
        reason:
          kind === "image"
            ? "These networks take a frame of the video as cover (cover.offsetMs), not an image."
            : "These networks take a cover image (cover.mediaId), not a frame offset."
      })
    if ("offsetMs" in request.cover) {
      const duration = videos[0].durationMs
      if (duration !== null && request.cover.offsetMs > duration)
        return Result.fail(invalidFields(["cover.offsetMs"], `cover.offsetMs is past the end of the video (${duration} ms).`))
    }
  }

  const tiktokTargets = targets.filter((a) => a.platform === "tiktok")
  const warnings: Array<string> = []
  if (tiktokTargets.length > 0) {
    if (request.tiktokAiGenerated && videos.length === 0) return refuse("tiktok_ai_unsupported", tiktokTargets, { reason: "The AI-generated label applies to videos only." })
    const t = request.tiktok
    if (t?.brandedContent === true && t.privacyLevel === "SELF_ONLY")
      return refuse("tiktok_privacy_conflict", tiktokTargets, { reason: "Branded content cannot be private (SELF_ONLY)." })
    // TikTok photo posts take JPEG and WebP only.
    if (images.some((m) => m.mimeType !== "image/jpeg" && m.mimeType !== "image/webp"))
      return Result.fail(
        fail("validation_failed", { fields: ["mediaIds"], accountIds: idsOf(tiktokTargets), platform: "tiktok" }, "TikTok photo posts take JPEG or WebP images only.")
      )
    if (t?.privacyLevel === undefined) warnings.push("No tiktok.privacyLevel: the post goes out with the most public level the creator allows when it is published.")
  } else if (request.tiktokAiGenerated) warnings.push("tiktokAiGenerated is ignored: no TikTok account is targeted.")
  const youtubeProblem = checkYoutube(request, targets, coverId === null ? null : mediaById.get(coverId)!, warnings)
  if (youtubeProblem !== null) return Result.fail(youtubeProblem)
  const pinterestProblem = checkPinterest(request, targets, images, warnings)
  if (pinterestProblem !== null) return Result.fail(pinterestProblem)

  // Per-network limits: text, media counts, polls.
  for (const account of targets) {
    const rules = networkRules[account.platform]
    const name = platformNames[account.platform]
    const tooLong = (text: string, limit: number, field: string) =>
      textLength(text, rules.textCounting, limit) > limit
        ? Result.fail(
            fail("validation_failed", { fields: [field], accountId: account.id, platform: account.platform, limit }, `${field} is longer than ${name} allows (${limit}).`)
          )
        : null
    const textProblem =
      tooLong(request.content, rules.textLimit, "content") ??
      request.thread.map((t, i) => tooLong(t, rules.textLimit, `thread[${i}]`)).find((r) => r !== null) ??
      (request.firstComment !== null ? tooLong(request.firstComment, rules.firstCommentLimit, "firstComment") : null)
    if (textProblem) return textProblem
    if (images.length > rules.maxImages || videos.length > rules.maxVideos || (!rules.mixedMedia && images.length > 0 && videos.length > 0))
      return Result.fail(
        fail(
          "validation_failed",
          { fields: ["mediaIds"], accountId: account.id, platform: account.platform, maxImages: rules.maxImages, maxVideos: rules.maxVideos, mixedMedia: rules.mixedMedia },
          `${name} takes at most ${rules.maxImages} images or ${rules.maxVideos} video(s)${rules.mixedMedia ? "" : ", not mixed"}.`
        )
      )
    if (rules.videoMaxSeconds !== null && videos.some((v) => v.durationMs !== null && v.durationMs > rules.videoMaxSeconds! * 1000))
      warnings.push(`${name} may refuse videos longer than ${rules.videoMaxSeconds} s.`)
    if (request.poll !== null && rules.poll !== null) {
      const p = rules.poll
      const poll = request.poll
      if (
        poll.options.length < p.minOptions ||
        poll.options.length > p.maxOptions ||
        poll.options.some((o) => o.trim() === "" || countUpTo(o, p.maxOptionLength) > p.maxOptionLength)
      )
        return Result.fail(
          fail(
            "validation_failed",
            { fields: ["poll.options"], platform: account.platform, minOptions: p.minOptions, maxOptions: p.maxOptions, maxOptionLength: p.maxOptionLength },
            `${name} polls take ${p.minOptions}-${p.maxOptions} options of at most ${p.maxOptionLength} characters.`
          )
        )
      const d = p.durationMinutes
      const okDuration = Array.isArray(d)
        ? d.includes(poll.durationMinutes)
        : poll.durationMinutes >= (d as { min: number }).min && poll.durationMinutes <= (d as { max: number }).max
      if (!okDuration)
        return Result.fail(
          fail(
            "validation_failed",
            { fields: ["poll.durationMinutes"], platform: account.platform, allowed: d },
            `${name} does not accept a poll of ${poll.durationMinutes} minutes.`
          )
        )
      if (poll.question !== undefined && p.maxQuestionLength === undefined && account.platform !== "sandbox")
        warnings.push(`poll.question applies to LinkedIn only; ${name} ignores it.`)
      if (poll.question !== undefined && p.maxQuestionLength !== undefined && countUpTo(poll.question, p.maxQuestionLength) > p.maxQuestionLength)
        return Result.fail(invalidFields(["poll.question"], `${name} poll questions take at most ${p.maxQuestionLength} characters.`))
      // A network that asks a question (LinkedIn) without one asks the post's text, which must fit.
      if (
        poll.question === undefined &&
        p.maxQuestionLength !== undefined &&
        (request.content.trim() === "" || countUpTo(request.content, p.maxQuestionLength) > p.maxQuestionLength)
      )
        return Result.fail(
          invalidFields(
            ["poll.question"],
            `${name} polls need a question of at most ${p.maxQuestionLength} characters: send poll.question, or keep the post's text that short to ask it.`
          )
        )
    }
    if (account.platform === "instagram" && (request.content.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0) > 30) warnings.push("Instagram refuses captions with more than 30 hashtags.")
    // Instagram's content publishing takes JPEG images only; Meta's container fails on anything else.
    if (account.platform === "instagram" && images.some((m) => m.mimeType !== "image/jpeg"))
      warnings.push("Instagram publishes JPEG images only: upload the other images as JPEG, or Instagram will refuse the post.")
  }
  return Result.succeed({ scheduledFor, targets, media, warnings })
}
