import type { Account } from "./account.ts"
import type { RedditKind, RedditOptions } from "./contract/postRequest.ts"
import { fail, type HeraldError } from "./errors.ts"
import type { Media } from "./media.ts"
import { countUpTo } from "./text.ts"

/** Reddit's own limits (POST /api/submit): a 300-character title, a 40,000-character text post. */
export const redditLimits = { title: 300, body: 40_000 } as const

/** What a post becomes on Reddit: one source for the rules check, the dry run and the adapter. */
export interface RedditSubmission {
  /** Without r/; null when the post names none. */
  readonly subreddit: string | null
  readonly kind: RedditKind
  readonly title: string
  /** A text post's body; link and image posts take none through the API. */
  readonly body: string
  readonly url: string | null
  readonly flairId: string | null
  /** The title is the text's first line (no reddit.title). */
  readonly titleFromText: boolean
}

const lines = (text: string) => text.trim().split(/\r?\n/)

/**
 * Decision: the title is `reddit.title`, else the text's first line, and then the body is the rest
 * of the text (Reddit would otherwise show the first line twice). The kind is `reddit.kind`, else
 * image when the post has an image, link when `reddit.url` is set, else a text post.
 */
export const redditSubmission = (
  content: string,
  media: ReadonlyArray<Pick<Media, "type">>,
  options: RedditOptions | undefined
): RedditSubmission => {
  const explicit = options?.title?.trim() ?? ""
  const [first = "", ...rest] = lines(content)
  const kind: RedditKind =
    options?.kind ?? (media.some((m) => m.type === "image") ? "image" : options?.url !== undefined ? "link" : "self")
  return {
    subreddit: options?.subreddit === undefined ? null : options.subreddit.replace(/^r\//, ""),
    kind,
    title: explicit !== "" ? explicit : first.trim(),
    body: explicit !== "" ? content.trim() : rest.join("\n").trim(),
    url: options?.url ?? null,
    flairId: options?.flairId ?? null,
    titleFromText: explicit === ""
  }
}

/** What is wrong with a Reddit submission whatever its subreddit: the field and why, or null. */
export const redditProblem = (
  submission: RedditSubmission,
  media: ReadonlyArray<Pick<Media, "type">>
): { readonly field: string; readonly message: string } | null => {
  if (submission.subreddit === null)
    return { field: "reddit.subreddit", message: "A Reddit post needs a subreddit: set reddit.subreddit." }
  if (submission.title === "")
    return {
      field: submission.titleFromText ? "content" : "reddit.title",
      message: "A Reddit post needs a title: set reddit.title, or start the text with it (its first line)."
    }
  if (countUpTo(submission.title, redditLimits.title) > redditLimits.title)
    return {
      field: submission.titleFromText ? "content" : "reddit.title",
      message: `Reddit titles take at most ${redditLimits.title} characters${submission.titleFromText ? " (the title is the text's first line; set reddit.title to choose it)" : ""}.`
    }
  const images = media.filter((m) => m.type === "image").length
  if (submission.kind === "link" && submission.url === null)
    return { field: "reddit.url", message: "A Reddit link post (reddit.kind link) needs reddit.url." }
  if (submission.kind === "image" && images !== 1)
    return { field: "mediaIds", message: "A Reddit image post (reddit.kind image) takes exactly one image." }
  if (submission.kind !== "image" && media.length > 0)
    return {
      field: "mediaIds",
      message: `A Reddit ${submission.kind === "self" ? "text" : "link"} post carries no media: drop the media or use reddit.kind image.`
    }
  if (countUpTo(submission.body, redditLimits.body) > redditLimits.body)
    return { field: "content", message: `A Reddit text post takes at most ${redditLimits.body} characters.` }
  return null
}

/** A Reddit target as the rules see it: its account, final text and media. */
interface RedditTarget {
  readonly account: Pick<Account, "id" | "platform">
  readonly content: string
  readonly media: ReadonlyArray<Pick<Media, "type">>
}

/**
 * The post's Reddit targets against what Reddit refuses whatever the subreddit (a subreddit's own
 * rules are the network's to check, when the post goes out and in the dry run); `field` names a
 * target's content or media field (its override's when it has one).
 */
export const checkRedditTargets = <T extends RedditTarget>(
  options: RedditOptions | null | undefined,
  targets: ReadonlyArray<T>,
  field: (target: T, name: "content" | "mediaIds") => string,
  warn: (target: T, message: string) => void
): HeraldError | null => {
  for (const target of targets) {
    const submission = redditSubmission(target.content, target.media, options ?? undefined)
    const problem = redditProblem(submission, target.media)
    if (problem !== null)
      return fail(
        "validation_failed",
        {
          fields: [
            problem.field === "content" || problem.field === "mediaIds" ? field(target, problem.field) : problem.field
          ],
          accountId: target.account.id,
          platform: "reddit"
        },
        problem.message
      )
    if (submission.kind !== "self" && submission.body !== "")
      warn(
        target,
        `A Reddit ${submission.kind} post has a title and no text: the text after the title is not posted (put it in firstComment).`
      )
  }
  return null
}
