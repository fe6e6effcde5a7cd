import { Result } from "effect"
import { type HeraldError, invalidFields } from "./errors.ts"
import { checkGoogleBusiness } from "./googleBusiness.ts"
import { isWellFormedId } from "./ids.ts"
import { checkText, describeTextProblem, type TextRule } from "./text.ts"
import { checkOverrides, type Overrides } from "./overrides.ts"
import type { Cover, Poll } from "./post.ts"
import { requestLimits } from "./networkRules.ts"
import {
  type CreatePostBody,
  decodeCreatePostBody,
  type FacebookOptions,
  type InstagramOptions,
  type DiscordOptions,
  type GoogleBusinessOptions,
  type MastodonOptions,
  type NetworkOptionKey,
  networkOptionKeys,
  type NetworkOptions,
  type PinterestOptions,
  type RedditOptions,
  type TiktokOptions,
  type YoutubeOptions
} from "./contract/postRequest.ts"
import type { ScheduledForInput } from "./contract/planning.ts"
import { isLocalTime } from "./scheduledFor.ts"

// The rules of a create-post request beyond its shape (domain/contract/postRequest.ts): texts,
// aliases, ids. Dates, accounts, media and per-network limits are postRules.ts's.

/** A create-post request after its rules: aliases folded, defaults filled, nothing looked up yet. */
export interface CreatePostRequest {
  readonly accountIds: ReadonlyArray<string>
  readonly content: string
  readonly mediaIds: ReadonlyArray<string>
  readonly dryRun: boolean
  /** An instant with an offset, or a local time in a zone (scheduledFor.ts resolves both). */
  readonly scheduledFor: ScheduledForInput | null
  /** Take the next free slot of the targets' posting queue instead of a time. */
  readonly queue?: boolean | undefined
  readonly requireApproval: boolean | null
  readonly firstComment: string | null
  readonly thread: ReadonlyArray<string>
  readonly poll: Poll | null
  readonly cover: Cover | null
  readonly tiktokAiGenerated: boolean
  readonly tiktok: TiktokOptions | null
  readonly youtube: YoutubeOptions | null
  readonly pinterest: PinterestOptions | null
  readonly facebook: FacebookOptions | null
  /** Optional, unlike the older networks' objects: a request built in code may leave it out. */
  readonly mastodon?: MastodonOptions | null | undefined
  readonly discord?: DiscordOptions | null | undefined
  readonly googleBusiness?: GoogleBusinessOptions | null | undefined
  readonly reddit?: RedditOptions | null | undefined
  readonly instagram?: InstagramOptions | null | undefined
  /** Per-network replacements of content, mediaIds, thread and firstComment. */
  readonly overrides: Overrides
}

/** The request's per-network objects as the post keeps them (absent ones left out). */
export const networkOptionsOf = (request: { readonly [K in NetworkOptionKey]?: NetworkOptions[K] | null }) => {
  const kept: { -readonly [K in NetworkOptionKey]?: NetworkOptions[K] } = {}
  for (const key of networkOptionKeys) {
    const value = request[key]
    if (value != null) Object.assign(kept, { [key]: value })
  }
  return kept as NetworkOptions
}

const blank = (text: string) => text.trim() === ""
const prose = (max: number): TextRule => ({ kind: "prose", max })

/** Checks a decoded create-post body; every field that breaks a rule is named in `details.fields`. */
export const checkCreatePost = (body: CreatePostBody): Result.Result<CreatePostRequest, HeraldError> => {
  const bad: Array<string> = []
  const notes: Array<string> = []
  const refuse = (fields: ReadonlyArray<string>, note?: string) => {
    bad.push(...fields)
    if (note !== undefined) notes.push(note)
  }

  if (body.accountIds.some(blank))
    refuse(["accountIds"], `accountIds must be an array of 1-${requestLimits.accounts} account ids.`)
  const content = body.content ?? ""

  let mediaIds = body.mediaIds ?? []
  const single = body.mediaId ?? null
  if (single !== null) {
    if (mediaIds.length > 0 && !(mediaIds.length === 1 && mediaIds[0] === single))
      refuse(["mediaId", "mediaIds"], "Send either mediaId or mediaIds, not both.")
    else mediaIds = [single]
  }

  let thread = body.thread ?? []
  if (thread.some(blank))
    refuse(["thread"], `thread must be an array of at most ${requestLimits.threadReplies} non-empty texts.`)
  const firstReply = body.firstReply ?? null
  if (firstReply !== null) {
    if (body.thread !== undefined && body.thread !== null)
      refuse(["firstReply", "thread"], "firstReply is an alias for a one-item thread; send one or the other.")
    else if (blank(firstReply)) refuse(["firstReply"])
    else thread = [firstReply]
  }

  const poll: Poll | null = body.poll
    ? {
        options: body.poll.options,
        durationMinutes: body.poll.durationMinutes,
        question: body.poll.question ?? undefined
      }
    : null
  const cover: Cover | null = body.cover ?? null
  if (cover !== null && "mediaId" in cover && !isWellFormedId(cover.mediaId)) refuse(["cover.mediaId"])

  /** An option's text: not blank, and within the prose rules. */
  const optionText = (name: string, value: string | undefined, max: number) => {
    if (value === undefined) return
    const problem = checkText(value, prose(max))
    if (blank(value) || problem !== null)
      refuse([name], problem === null ? undefined : describeTextProblem(name, problem))
  }
  const youtube = body.youtube ?? null
  if (youtube !== null) {
    optionText("youtube.title", youtube.title, 1000)
    if (youtube.tags?.some((t) => blank(t) || checkText(t, prose(500)) !== null)) refuse(["youtube.tags"])
  }
  const pinterest = body.pinterest ?? null
  if (pinterest !== null) {
    optionText("pinterest.link", pinterest.link, 4096)
    if (pinterest.link !== undefined && !blank(pinterest.link) && !/^https?:\/\/[^\s/?#]+\S*$/i.test(pinterest.link))
      refuse(["pinterest.link"], "pinterest.link must be an http(s) URL.")
    optionText("pinterest.title", pinterest.title, 1000)
  }
  const mastodon = body.mastodon ?? null
  if (mastodon !== null) optionText("mastodon.contentWarning", mastodon.contentWarning, 1000)
  const discord = body.discord ?? null
  if (discord !== null) optionText("discord.threadName", discord.threadName, 100)
  const googleBusiness = body.googleBusiness ?? null
  if (googleBusiness !== null) {
    optionText("googleBusiness.event.title", googleBusiness.event?.title, 1000)
    optionText("googleBusiness.offer.couponCode", googleBusiness.offer?.couponCode, 1000)
    optionText("googleBusiness.offer.termsConditions", googleBusiness.offer?.termsConditions, 5000)
    for (const problem of checkGoogleBusiness(googleBusiness)) refuse([problem.field], problem.note)
  }
  const reddit = body.reddit ?? null
  if (reddit !== null) {
    optionText("reddit.title", reddit.title, 300)
    optionText("reddit.flairId", reddit.flairId, 100)
    optionText("reddit.url", reddit.url, 2048)
    if (reddit.url !== undefined && !blank(reddit.url) && !/^https?:\/\/[^\s/?#]+\S*$/i.test(reddit.url))
      refuse(["reddit.url"], "reddit.url must be an http(s) URL.")
  }

  const overrides = checkOverrides(body.overrides ?? {})
  for (const problem of overrides.problems) refuse([problem.field], problem.note)
  // With overrides, each target's own content is checked once its network is known (postRules).
  const overridden = Object.keys(overrides.overrides).length > 0
  if (bad.length === 0 && !overridden && blank(content) && mediaIds.length === 0 && poll === null)
    refuse(["content"], "A post needs content, media or a poll.")
  const scheduledFor = body.scheduledFor ?? null
  const queue = body.queue ?? false
  if (queue && scheduledFor !== null)
    refuse(["queue", "scheduledFor"], "Send queue: true or scheduledFor, not both: the queue picks the time.")
  const firstComment = body.firstComment ?? null
  const texts: Array<[string, string | null | undefined, TextRule]> = [
    ["content", content, prose(requestLimits.text)],
    ["firstComment", firstComment, prose(requestLimits.firstComment)],
    ["poll.question", poll?.question, prose(requestLimits.pollQuestion)],
    ...(isLocalTime(scheduledFor)
      ? ([
          ["scheduledFor.local", scheduledFor.local, { kind: "label", max: 64 }],
          ["scheduledFor.timeZone", scheduledFor.timeZone, { kind: "label", max: 64 }]
        ] satisfies Array<[string, string | undefined, TextRule]>)
      : ([["scheduledFor", scheduledFor, { kind: "label", max: 64 }]] satisfies Array<
          [string, string | null, TextRule]
        >)),
    ...thread.map((t, i): [string, string, TextRule] => [`thread[${i}]`, t, prose(requestLimits.text)]),
    ...(poll?.options ?? []).map((o): [string, string, TextRule] => [
      "poll.options",
      o,
      prose(requestLimits.pollOption)
    ])
  ]
  for (const [field, text, rule] of texts) {
    const problem = text ? checkText(text, rule) : null
    if (problem !== null) refuse([field], describeTextProblem(field, problem))
  }
  if (mediaIds.some((id) => !isWellFormedId(id))) refuse(["mediaIds"])
  if (bad.length > 0) return Result.fail(invalidFields(bad, notes.length > 0 ? notes.join(" ") : undefined))
  return Result.succeed({
    accountIds: [...new Set(body.accountIds)],
    content,
    mediaIds,
    dryRun: body.dryRun ?? false,
    scheduledFor,
    queue,
    requireApproval: body.requireApproval ?? null,
    firstComment: firstComment !== null && !blank(firstComment) ? firstComment : null,
    thread,
    poll,
    cover,
    tiktokAiGenerated: body.tiktokAiGenerated ?? false,
    tiktok: body.tiktok ?? null,
    youtube,
    pinterest,
    facebook: body.facebook ?? null,
    mastodon,
    discord,
    googleBusiness,
    reddit,
    instagram: body.instagram ?? null,
    overrides: overrides.overrides
  })
}

/** Shape, then rules: a create-post body from anywhere (tests, tools that hold raw JSON). */
export const decodeCreatePost = (input: unknown): Result.Result<CreatePostRequest, HeraldError> =>
  Result.flatMap(decodeCreatePostBody(input), checkCreatePost)
