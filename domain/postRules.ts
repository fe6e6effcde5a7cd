import { Result } from "effect"
import type { Account } from "./account.ts"
import { fail, type HeraldError, invalidFields } from "./errors.ts"
import { isExpired, type Media } from "./media.ts"
import { networkRules, textLength } from "./networkRules.ts"
import {
  contentFor,
  type Overrides,
  overrideMediaIds,
  overridesFor,
  sourceField,
  type TargetContent,
  untargetedOverrides
} from "./overrides.ts"
import { platformNames } from "./platforms.ts"
import type { CreatePostRequest } from "./postRequest.ts"
import { checkRedditTargets } from "./redditPost.ts"
import { countUpTo } from "./text.ts"
import type { ScheduledForInput } from "./contract/planning.ts"
import { checkScheduledFor } from "./scheduledFor.ts"
import { ASPECT_TOLERANCE, checkInstagram, checkTiktokDraft, isInstagramStory } from "./formatRules.ts"

export interface RulesContext {
  readonly now: number
  /** Every account of the workspace (to tell "none connected" from "not found"). */
  readonly accounts: ReadonlyArray<Account>
  /** The media named by the request that exist in the workspace (missing ones are absent). */
  readonly media: ReadonlyArray<Media>
  /** The zone a local `scheduledFor` without its own is read in (the targets'); absent: it must name one. */
  readonly timeZone?: string | undefined
}

/** One target as it would be published: its account and its final content and media. */
export interface PlannedTarget extends TargetContent {
  readonly account: Account
  readonly media: ReadonlyArray<Media>
}

/** A target that passed the rules, with what its network will do that the caller should know. */
export interface CheckedTarget extends PlannedTarget {
  readonly warnings: ReadonlyArray<string>
}

export interface CheckedPost {
  readonly scheduledFor: number | null
  readonly targets: ReadonlyArray<Account>
  /** The targets in request order, each with its network's final content and its own warnings. */
  readonly planned: ReadonlyArray<CheckedTarget>
  /** The request's overrides for the targeted networks (others are ignored, with a warning). */
  readonly overrides: Overrides
  /** Every warning, the targets' included, once each. */
  readonly warnings: ReadonlyArray<string>
  /** Accounts that need reconnecting (only a dry run gets this far with them: it reports them per target). */
  readonly stale: ReadonlyArray<Account>
}

/** Warnings about the post as a whole, and about single targets (which are the post's too). */
export interface Warnings {
  readonly post: (message: string) => void
  readonly target: (target: PlannedTarget, message: string) => void
}

const collectWarnings = () => {
  const all: Array<string> = []
  const byAccount = new Map<string, Array<string>>()
  const post = (message: string) => {
    if (!all.includes(message)) all.push(message)
  }
  const warnings: Warnings = {
    post,
    target: (target, message) => {
      post(message)
      const own = byAccount.get(target.account.id) ?? []
      if (!own.includes(message)) byAccount.set(target.account.id, [...own, message])
    }
  }
  return { warnings, all, of: (target: PlannedTarget) => byAccount.get(target.account.id) ?? [] }
}

/**
 * Parses `scheduledFor`: strict ISO 8601 with an offset, or a local time in a zone (scheduledFor.ts);
 * in the future, under one year ahead.
 */
export const checkSchedule = (
  value: ScheduledForInput | null,
  now: number,
  defaultZone?: string
): Result.Result<number | null, HeraldError> => checkScheduledFor(value, now, defaultZone)

const idsOf = (accounts: ReadonlyArray<Account>) => accounts.map((a) => a.id)

/** YouTube's title and tag limits (videos.insert: a 1-100 character title without < or >, 500 characters of tags). */
export const youtubeLimits = { title: 100, tags: 500, thumbnailBytes: 2 * 1024 * 1024 } as const

/** The text's first line, as a YouTube title is made when none is given. */
export const firstLine = (text: string) => text.trim().split(/\r?\n/)[0]?.trim() ?? ""

/** Tags as YouTube counts them: each with a comma after it, quoted when it has a space. */
const tagsLength = (tags: ReadonlyArray<string>) =>
  tags.reduce((n, t) => n + countUpTo(t, 1000) + (/\s/.test(t) ? 2 : 0) + 1, 0) - (tags.length > 0 ? 1 : 0)

const checkYoutube = (
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

/** Pinterest's pin limits (API v5 pins/create: title 100, link 2,048). */
export const pinterestLimits = { title: 100, link: 2048 } as const

const checkPinterest = (
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

/**
 * Mastodon counts a status's content warning with its text (and Herald gives thread replies and first
 * comments their post's warning): each of a Mastodon target's texts with the warning fits the row's limit.
 */
const checkMastodon = (
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

/** Whether a Facebook target goes up as a reel (facebook.reel), not as a Page video. */
export const isFacebookReel = (request: Pick<CreatePostRequest, "facebook">, target: PlannedTarget) =>
  target.account.platform === "facebook" && request.facebook?.reel === true

const checkFacebook = (
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

const imagesOf = (t: PlannedTarget) => t.media.filter((m) => m.type === "image")
const videosOf = (t: PlannedTarget) => t.media.filter((m) => m.type === "video")

/** Every rule of the spec and of the per-network table, in a fixed order; first failure wins. Each target is checked on its final content. */
export const checkPost = (request: CreatePostRequest, ctx: RulesContext): Result.Result<CheckedPost, HeraldError> => {
  const schedule = checkSchedule(request.scheduledFor, ctx.now, ctx.timeZone)
  if (Result.isFailure(schedule)) return Result.fail(schedule.failure)
  const scheduledFor = schedule.success

  if (ctx.accounts.length === 0) return Result.fail(fail("no_accounts_connected"))
  const byId = new Map(ctx.accounts.map((a) => [a.id, a]))
  const missingAccounts = request.accountIds.filter((id) => !byId.has(id))
  if (missingAccounts.length > 0) return Result.fail(fail("account_not_found", { accountIds: missingAccounts }))
  const targets = request.accountIds.map((id) => byId.get(id)!)
  const stale = targets.filter((a) => a.status !== "connected")
  if (stale.length > 0 && !request.dryRun)
    return Result.fail(fail("account_needs_reconnection", { accountIds: idsOf(stale) }))

  const collected = collectWarnings()
  const warnings = collected.warnings
  const targeted = targets.map((a) => a.platform)
  for (const platform of untargetedOverrides(request.overrides, targeted))
    warnings.post(`overrides.${platform} is ignored: no ${platformNames[platform]} account is targeted.`)
  const overrides = overridesFor(request.overrides, targeted)

  const mediaById = new Map(ctx.media.map((m) => [m.id, m]))
  const coverId = request.cover && "mediaId" in request.cover ? request.cover.mediaId : null
  const wanted = [...request.mediaIds, ...overrideMediaIds(overrides), ...(coverId ? [coverId] : [])]
  const missingMedia = wanted.filter((id) => !mediaById.has(id))
  if (missingMedia.length > 0) return Result.fail(fail("media_not_found", { mediaIds: [...new Set(missingMedia)] }))
  const expired = wanted.filter((id) => isExpired(mediaById.get(id)!, ctx.now))
  if (expired.length > 0) return Result.fail(fail("media_expired", { mediaIds: [...new Set(expired)] }))
  const post = { ...request, overrides }
  const planned: ReadonlyArray<PlannedTarget> = targets.map((account) => {
    const content = contentFor(post, account.platform)
    return { ...content, account, media: content.mediaIds.map((id) => mediaById.get(id)!) }
  })
  const field = (t: PlannedTarget, name: Parameters<typeof sourceField>[2]) =>
    sourceField(overrides, t.account.platform, name)

  const refuse = (
    code: Parameters<typeof fail>[0],
    refused: ReadonlyArray<PlannedTarget>,
    extra?: Record<string, unknown>
  ) =>
    Result.fail(
      fail(code, {
        accountIds: refused.map((t) => t.account.id),
        platforms: [...new Set(refused.map((t) => t.account.platform))],
        ...extra
      })
    )

  const empty = planned.find((t) => t.content.trim() === "" && t.media.length === 0 && request.poll === null)
  if (empty !== undefined)
    return Result.fail(
      invalidFields(
        [field(empty, "content"), field(empty, "mediaIds")],
        `The ${platformNames[empty.account.platform]} post would have no content, media or poll.`
      )
    )
  const needMedia = planned.filter((t) => t.media.length === 0 && networkRules[t.account.platform].mediaRequired)
  if (needMedia.length > 0) return refuse("media_required", needMedia)
  const threaded = planned.filter((t) => t.thread.length > 0)
  const noThreads = threaded.filter((t) => networkRules[t.account.platform].maxThreadReplies === 0)
  if (noThreads.length > 0) return refuse("thread_unsupported", noThreads)
  const tooMany = threaded.find((t) => t.thread.length > networkRules[t.account.platform].maxThreadReplies)
  if (tooMany !== undefined) {
    const max = networkRules[tooMany.account.platform].maxThreadReplies
    const overThread = threaded.filter((t) => t.thread.length > networkRules[t.account.platform].maxThreadReplies)
    return Result.fail(
      fail(
        "validation_failed",
        { fields: [field(tooMany, "thread")], accountIds: overThread.map((t) => t.account.id), maxThreadReplies: max },
        `${platformNames[tooMany.account.platform]} threads take at most ${max} replies.`
      )
    )
  }
  if (request.poll !== null) {
    const no = planned.filter((t) => networkRules[t.account.platform].poll === null)
    if (no.length > 0) return refuse("poll_unsupported", no)
    const withMedia = planned.filter((t) => t.media.length > 0)
    if (withMedia.length > 0)
      return refuse("poll_unsupported", withMedia, { reason: "A poll cannot be sent with media." })
  }
  const noComments = planned.filter((t) => t.firstComment !== null && !networkRules[t.account.platform].firstComment)
  if (noComments.length > 0) return refuse("first_comment_unsupported", noComments)
  if (request.cover !== null) {
    // A cover applies to the targets that post a video.
    const covered = planned.filter((t) => videosOf(t).length > 0)
    if (covered.length === 0)
      return Result.fail(invalidFields(["cover"], "A cover applies to a video; add a video upload."))
    const no = covered.filter((t) => !networkRules[t.account.platform].cover)
    if (no.length > 0) return refuse("cover_unsupported", no)
    if (coverId !== null && mediaById.get(coverId)!.type !== "image")
      return Result.fail(invalidFields(["cover.mediaId"], "cover.mediaId must be an image upload."))
    const kind = coverId !== null ? "image" : "offset"
    const otherKind = covered.filter(
      (t) => !(networkRules[t.account.platform].coverKinds ?? ["image", "offset"]).includes(kind)
    )
    if (otherKind.length > 0)
      return refuse("cover_unsupported", otherKind, {
        reason:
          kind === "image"
            ? "These networks take a frame of the video as cover (cover.offsetMs), not an image."
            : "These networks take a cover image (cover.mediaId), not a frame offset."
      })
    if ("offsetMs" in request.cover) {
      const offset = request.cover.offsetMs
      const short = covered
        .map((t) => videosOf(t)[0].durationMs)
        .find((duration) => duration !== null && offset > duration)
      if (short != null)
        return Result.fail(
          invalidFields(["cover.offsetMs"], `cover.offsetMs is past the end of the video (${short} ms).`)
        )
    }
  }

  const tiktokTargets = planned.filter((t) => t.account.platform === "tiktok")
  if (tiktokTargets.length > 0) {
    if (request.tiktokAiGenerated && tiktokTargets.some((t) => videosOf(t).length === 0))
      return refuse("tiktok_ai_unsupported", tiktokTargets, {
        reason: "The AI-generated label applies to videos only."
      })
    const draftProblem = checkTiktokDraft(request, tiktokTargets, field, warnings)
    if (draftProblem !== null) return Result.fail(draftProblem)
    const t = request.tiktok
    if (t?.draft !== true && t?.brandedContent === true && t.privacyLevel === "SELF_ONLY")
      return refuse("tiktok_privacy_conflict", tiktokTargets, {
        reason: "Branded content cannot be private (SELF_ONLY)."
      })
    // TikTok photo posts take JPEG and WebP only.
    if (
      tiktokTargets.some((target) =>
        imagesOf(target).some((m) => m.mimeType !== "image/jpeg" && m.mimeType !== "image/webp")
      )
    )
      return Result.fail(
        fail(
          "validation_failed",
          {
            fields: [field(tiktokTargets[0], "mediaIds")],
            accountIds: tiktokTargets.map((target) => target.account.id),
            platform: "tiktok"
          },
          "TikTok photo posts take JPEG or WebP images only."
        )
      )
    if (t?.privacyLevel === undefined && t?.draft !== true)
      for (const target of tiktokTargets)
        warnings.target(
          target,
          "No tiktok.privacyLevel: the post goes out with the most public level the creator allows when it is published."
        )
  } else if (request.tiktokAiGenerated) warnings.post("tiktokAiGenerated is ignored: no TikTok account is targeted.")
  const youtubeProblem = checkYoutube(request, planned, coverId === null ? null : mediaById.get(coverId)!, warnings)
  if (youtubeProblem !== null) return Result.fail(youtubeProblem)
  const pinterestProblem = checkPinterest(request, planned, warnings)
  if (pinterestProblem !== null) return Result.fail(pinterestProblem)
  const facebookProblem = checkFacebook(request, planned, warnings)
  if (facebookProblem !== null) return Result.fail(facebookProblem)
  const instagramProblem = checkInstagram(request, planned, field, warnings)
  if (instagramProblem !== null) return Result.fail(instagramProblem)
  const mastodonProblem = checkMastodon(request, planned, warnings)
  if (mastodonProblem !== null) return Result.fail(mastodonProblem)
  if (request.discord != null && !planned.some((t) => t.account.platform === "discord"))
    warnings.post("discord is ignored: no Discord account is targeted.")
  if (request.googleBusiness != null && !planned.some((t) => t.account.platform === "google_business"))
    warnings.post("googleBusiness is ignored: no Google Business Profile account is targeted.")
  const redditTargets = planned.filter((t) => t.account.platform === "reddit")
  if (request.reddit != null && redditTargets.length === 0)
    warnings.post("reddit is ignored: no Reddit account is targeted.")
  const redditProblem = checkRedditTargets(request.reddit, redditTargets, field, warnings.target)
  if (redditProblem !== null) return Result.fail(redditProblem)

  // Per-network limits on each target's final text and media, and polls.
  for (const target of planned) {
    const problem = checkTargetLimits(
      request,
      target,
      (name) => field(target, name),
      (message) => warnings.target(target, message)
    )
    if (problem !== null) return Result.fail(problem)
  }
  const checked = planned.map((target) => ({ ...target, warnings: collected.of(target) }))
  return Result.succeed({ scheduledFor, targets, planned: checked, overrides, warnings: collected.all, stale })
}

/** One target's text lengths, media counts and poll against its network's row of the table. */
const checkTargetLimits = (
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
