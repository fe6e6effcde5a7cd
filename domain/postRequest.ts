import { Result } from "effect"
import { type HeraldError, invalidFields } from "./errors.ts"
import { isWellFormedId } from "./ids.ts"
import { requestLimits } from "./networkRules.ts"
import { checkText, describeTextProblem, type TextRule } from "./text.ts"
import type { Overrides } from "./overrides.ts"
import type { Cover, Poll } from "./post.ts"

export type TiktokPrivacy = "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY"
export const tiktokPrivacyLevels: ReadonlyArray<TiktokPrivacy> = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"]

/** TikTok options beyond the spec's `tiktokAiGenerated` (TikTok's own Content Posting API settings). */
export interface TiktokOptions {
  readonly privacyLevel?: TiktokPrivacy | undefined
  readonly brandedContent?: boolean | undefined
}

export type YoutubePrivacy = "public" | "unlisted" | "private"
export const youtubePrivacyStatuses: ReadonlyArray<YoutubePrivacy> = ["public", "unlisted", "private"]

/** YouTube's video settings (Data API videos.insert snippet and status); the post's text is the description. */
export interface YoutubeOptions {
  /** The video's title (1-100 characters); without one, the text's first line. */
  readonly title?: string | undefined
  readonly privacyStatus?: YoutubePrivacy | undefined
  /** selfDeclaredMadeForKids, which YouTube requires creators to state. */
  readonly madeForKids?: boolean | undefined
  readonly tags?: ReadonlyArray<string> | undefined
}

/** Pinterest's pin settings: the board (else the account's default board), the pin's link and title. */
export interface PinterestOptions {
  readonly boardId?: string | undefined
  readonly link?: string | undefined
  readonly title?: string | undefined
}

/** The optional per-network objects of a post request, stored on the post and handed to each network. */
export interface NetworkOptions {
  readonly tiktok?: TiktokOptions | undefined
  readonly youtube?: YoutubeOptions | undefined
  readonly pinterest?: PinterestOptions | undefined
}

/** A create-post request after shape checks: aliases folded, nothing looked up yet. */
export interface CreatePostRequest {
  readonly accountIds: ReadonlyArray<string>
  readonly content: string
  readonly mediaIds: ReadonlyArray<string>
  readonly dryRun: boolean
  readonly scheduledFor: string | null
  readonly requireApproval: boolean | null
  readonly firstComment: string | null
  readonly thread: ReadonlyArray<string>
  readonly poll: Poll | null
  readonly cover: Cover | null
  readonly tiktokAiGenerated: boolean
  readonly tiktok: TiktokOptions | null
  readonly youtube: YoutubeOptions | null
  readonly pinterest: PinterestOptions | null
  /** Per-network replacements of content, mediaIds, thread and firstComment. */
  readonly overrides: Overrides
}

/** The request's per-network objects as the post keeps them (absent ones left out). */
export const networkOptionsOf = (request: Pick<CreatePostRequest, "tiktok" | "youtube" | "pinterest">): NetworkOptions => ({
  ...(request.tiktok === null ? {} : { tiktok: request.tiktok }),
  ...(request.youtube === null ? {} : { youtube: request.youtube }),
  ...(request.pinterest === null ? {} : { pinterest: request.pinterest })
})

const knownFields = new Set([
  "accountIds",
  "content",
  "mediaIds",
  "mediaId",
  "dryRun",
  "scheduledFor",
  "requireApproval",
  "firstComment",
  "thread",
  "firstReply",
  "poll",
  "cover",
  "tiktokAiGenerated",
  "tiktok",
  "youtube",
  "pinterest"
])

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const isStringArray = (u: unknown): u is Array<string> => Array.isArray(u) && u.every((s) => typeof s === "string")

/** Checks the shape of a create-post body; every malformed field is named in `details.fields`. */
export const decodeCreatePost = (body: unknown): Result.Result<CreatePostRequest, HeraldError> => {
  if (!isRecord(body)) return Result.fail(invalidFields(["body"], "The request body must be a JSON object."))
  const bad: Array<string> = []
  const notes: Array<string> = []
  const unknown = Object.keys(body).filter((k) => !knownFields.has(k))
  if (unknown.length > 0) {
    bad.push(...unknown)
    notes.push(`Unknown field(s): ${unknown.join(", ")}.`)
  }
  const optString = (key: string): string | null => {
    const v = body[key]
    if (v === undefined || v === null) return null
    if (typeof v !== "string") bad.push(key)
    return typeof v === "string" ? v : null
  }
  const optBool = (key: string): boolean | null => {
    const v = body[key]
    if (v === undefined || v === null) return null
    if (typeof v !== "boolean") bad.push(key)
    return typeof v === "boolean" ? v : null
  }

  const accountIds = body.accountIds
  if (!isStringArray(accountIds) || accountIds.length === 0 || accountIds.length > requestLimits.accounts || accountIds.some((id) => id.trim() === "")) {
    bad.push("accountIds")
    notes.push(`accountIds must be an array of 1-${requestLimits.accounts} account ids.`)
  }
  const content = optString("content") ?? ""

  let mediaIds: Array<string> = []
  if (body.mediaIds !== undefined && body.mediaIds !== null) {
    if (isStringArray(body.mediaIds) && body.mediaIds.length <= requestLimits.media) mediaIds = body.mediaIds
    else {
      bad.push("mediaIds")
      notes.push(`mediaIds must be an array of at most ${requestLimits.media} media ids.`)
    }
  }
  const single = optString("mediaId")
  if (single !== null) {
    if (mediaIds.length > 0 && !(mediaIds.length === 1 && mediaIds[0] === single)) {
      bad.push("mediaId", "mediaIds")
      notes.push("Send either mediaId or mediaIds, not both.")
    } else mediaIds = [single]
  }

  const scheduledFor = optString("scheduledFor")
  const firstComment = optString("firstComment")
  let thread: Array<string> = []
  if (body.thread !== undefined && body.thread !== null) {
    if (isStringArray(body.thread) && body.thread.length <= requestLimits.threadReplies && body.thread.every((t) => t.trim() !== "")) thread = body.thread
    else {
      bad.push("thread")
      notes.push(`thread must be an array of at most ${requestLimits.threadReplies} non-empty texts.`)
    }
  }
  const firstReply = optString("firstReply")
  if (firstReply !== null) {
    if (body.thread !== undefined && body.thread !== null) {
      bad.push("firstReply", "thread")
      notes.push("firstReply is an alias for a one-item thread; send one or the other.")
    } else if (firstReply.trim() === "") bad.push("firstReply")
    else thread = [firstReply]
  }

  let poll: Poll | null = null
  if (body.poll !== undefined && body.poll !== null) {
    const p = body.poll
    if (!isRecord(p)) bad.push("poll")
    else {
      if (!isStringArray(p.options) || p.options.length > requestLimits.pollOptions) bad.push("poll.options")
      if (typeof p.durationMinutes !== "number" || !Number.isInteger(p.durationMinutes) || p.durationMinutes <= 0) bad.push("poll.durationMinutes")
      if (p.question !== undefined && p.question !== null && typeof p.question !== "string") bad.push("poll.question")
      if (isStringArray(p.options) && p.options.length <= requestLimits.pollOptions && typeof p.durationMinutes === "number")
        poll = { options: p.options, durationMinutes: p.durationMinutes, question: typeof p.question === "string" ? p.question : undefined }
    }
  }

  let cover: Cover | null = null
  if (body.cover !== undefined && body.cover !== null) {
    const c = body.cover
    const hasId = isRecord(c) && c.mediaId !== undefined
    const hasOffset = isRecord(c) && c.offsetMs !== undefined
    if (!isRecord(c) || hasId === hasOffset) {
      bad.push("cover")
      notes.push("cover is either {mediaId} or {offsetMs}.")
    } else if (hasId) {
      if (typeof c.mediaId === "string" && c.mediaId !== "") cover = { mediaId: c.mediaId }
      else bad.push("cover.mediaId")
    } else if (typeof c.offsetMs === "number" && Number.isInteger(c.offsetMs) && c.offsetMs >= 0) cover = { offsetMs: c.offsetMs }
    else bad.push("cover.offsetMs")
  }

  let tiktok: TiktokOptions | null = null
  if (body.tiktok !== undefined && body.tiktok !== null) {
    const t = body.tiktok
    if (!isRecord(t)) bad.push("tiktok")
    else {
      const privacy = t.privacyLevel
      if (privacy !== undefined && !tiktokPrivacyLevels.includes(privacy as TiktokPrivacy)) bad.push("tiktok.privacyLevel")
      if (t.brandedContent !== undefined && typeof t.brandedContent !== "boolean") bad.push("tiktok.brandedContent")
      tiktok = {
        privacyLevel: privacy as TiktokPrivacy | undefined,
        brandedContent: typeof t.brandedContent === "boolean" ? t.brandedContent : undefined
      }
    }
  }

  /** An optional object whose fields are checked by `fields`; unknown fields are named. */
  const options = <A>(name: string, known: ReadonlyArray<string>, fields: (o: Record<string, unknown>) => A): A | null => {
    const o = body[name]
    if (o === undefined || o === null) return null
    if (!isRecord(o)) {
      bad.push(name)
      return null
    }
    const unknownOptions = Object.keys(o).filter((k) => !known.includes(k))
    if (unknownOptions.length > 0) {
      bad.push(...unknownOptions.map((k) => `${name}.${k}`))
      notes.push(`Unknown field(s) in ${name}: ${unknownOptions.join(", ")}.`)
    }
    return fields(o)
  }
  const optionText = (name: string, value: unknown, max: number): string | undefined => {
    if (value === undefined || value === null) return undefined
    const problem = typeof value === "string" ? checkText(value, { kind: "prose", max }) : null
    if (typeof value !== "string" || value.trim() === "" || problem !== null) {
      bad.push(name)
      if (problem !== null) notes.push(describeTextProblem(name, problem))
      return undefined
    }
    return value
  }
  const youtube = options("youtube", ["title", "privacyStatus", "madeForKids", "tags"], (o): YoutubeOptions => {
    if (o.privacyStatus !== undefined && !youtubePrivacyStatuses.includes(o.privacyStatus as YoutubePrivacy)) bad.push("youtube.privacyStatus")
    if (o.madeForKids !== undefined && typeof o.madeForKids !== "boolean") bad.push("youtube.madeForKids")
    const tagsOk =
      o.tags === undefined || (isStringArray(o.tags) && o.tags.length <= 500 && o.tags.every((t) => t.trim() !== "" && checkText(t, { kind: "prose", max: 500 }) === null))
    if (!tagsOk) bad.push("youtube.tags")
    return {
      title: optionText("youtube.title", o.title, 1000),
      privacyStatus: youtubePrivacyStatuses.includes(o.privacyStatus as YoutubePrivacy) ? (o.privacyStatus as YoutubePrivacy) : undefined,
      madeForKids: typeof o.madeForKids === "boolean" ? o.madeForKids : undefined,
      tags: tagsOk && isStringArray(o.tags) ? o.tags : undefined
    }
  })
  const pinterest = options("pinterest", ["boardId", "link", "title"], (o): PinterestOptions => {
    const boardId =
      o.boardId === undefined ? undefined : typeof o.boardId === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(o.boardId) ? o.boardId : (bad.push("pinterest.boardId"), undefined)
    const link = optionText("pinterest.link", o.link, 4096)
    if (link !== undefined && !/^https?:\/\/[^\s/?#]+\S*$/i.test(link)) {
      bad.push("pinterest.link")
      notes.push("pinterest.link must be an http(s) URL.")
    }
    return { boardId, link, title: optionText("pinterest.title", o.title, 1000) }
  })

  const dryRun = optBool("dryRun") ?? false
  const requireApproval = optBool("requireApproval")
  const tiktokAiGenerated = optBool("tiktokAiGenerated") ?? false

  if (bad.length === 0 && content.trim() === "" && mediaIds.length === 0 && poll === null) {
    bad.push("content")
    notes.push("A post needs content, media or a poll.")
  }
  const prose = (max: number): TextRule => ({ kind: "prose", max })
  const texts: Array<[string, string | null | undefined, TextRule]> = [
    ["content", content, prose(requestLimits.text)],
    ["firstComment", firstComment, prose(requestLimits.firstComment)],
    ["poll.question", poll?.question, prose(requestLimits.pollQuestion)],
    ["scheduledFor", scheduledFor, { kind: "label", max: 64 }],
    ...thread.map((t, i): [string, string, TextRule] => [`thread[${i}]`, t, prose(requestLimits.text)]),
    ...(poll?.options ?? []).map((o): [string, string, TextRule] => ["poll.options", o, prose(requestLimits.pollOption)])
  ]
  for (const [field, text, rule] of texts) {
    const problem = text ? checkText(text, rule) : null
    if (problem !== null) {
      bad.push(field)
      notes.push(describeTextProblem(field, problem))
    }
  }
  if (mediaIds.some((id) => !isWellFormedId(id))) bad.push("mediaIds")
  if (cover !== null && "mediaId" in cover && !isWellFormedId(cover.mediaId)) bad.push("cover.mediaId")
  if (bad.length > 0) return Result.fail(invalidFields([...new Set(bad)], notes.length > 0 ? notes.join(" ") : undefined))
  return Result.succeed({
    accountIds: [...new Set(accountIds as Array<string>)],
    content,
    mediaIds,
    dryRun,
    scheduledFor,
    requireApproval,
    firstComment: firstComment !== null && firstComment.trim() !== "" ? firstComment : null,
    thread,
    poll,
    cover,
    tiktokAiGenerated,
    tiktok,
    youtube,
    pinterest,
    overrides: {}
  })
}
