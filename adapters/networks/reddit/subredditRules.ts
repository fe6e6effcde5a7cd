import type { RedditSubmission } from "../../../domain/redditPost.ts"
import type { LinkFlair, PostRequirements, SubredditAbout } from "./things.ts"

/** What Reddit says of one subreddit, as read before a post goes there. */
export interface SubredditRules {
  readonly about: SubredditAbout
  readonly requirements: PostRequirements
  readonly flairs: ReadonlyArray<LinkFlair>
}

const lower = (s: string) => s.toLowerCase()
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "")
  } catch {
    return ""
  }
}
const onDomain = (host: string, domain: string) => {
  const d = lower(domain).replace(/^www\./, "")
  return host === d || host.endsWith(`.${d}`)
}
const flairList = (flairs: ReadonlyArray<LinkFlair>) =>
  flairs.length === 0
    ? "it lists none Herald can read"
    : flairs
        .slice(0, 10)
        .map((f) => `${f.id} (${f.text ?? ""})`)
        .join(", ")

/**
 * Why `submission` would be refused by r/<name>, each in words for the person; empty when it fits.
 * From GET /r/{sr}/about (type, submission_type, the account's standing) and
 * GET /api/v1/{sr}/post_requirements (flair, title, body, domains), flairs from link_flair_v2.
 */
export const subredditProblems = (submission: RedditSubmission, rules: SubredditRules): ReadonlyArray<string> => {
  const { about, requirements: req, flairs } = rules
  const sr = `r/${about.display_name}`
  const problems: Array<string> = []
  const member = about.user_is_contributor === true || about.user_is_moderator === true
  if (about.user_is_banned === true) problems.push(`The account is banned from ${sr}.`)
  if ((about.subreddit_type === "restricted" || about.subreddit_type === "private") && !member)
    problems.push(`${sr} is ${about.subreddit_type}: only its approved users may post, and the account is not one.`)
  if (about.subreddit_type === "archived") problems.push(`${sr} is archived: it takes no new posts.`)
  const allowed = about.submission_type ?? "any"
  if (submission.kind === "self" && allowed === "link")
    problems.push(`${sr} takes link posts only (submission_type link): set reddit.url.`)
  if (submission.kind !== "self" && allowed === "self")
    problems.push(`${sr} takes text posts only (submission_type self): leave out reddit.url and media.`)
  if (submission.kind === "image" && about.allow_images === false) problems.push(`${sr} takes no image posts.`)

  if (submission.flairId === null && req.is_flair_required === true)
    problems.push(`${sr} requires a flair: set reddit.flairId to one of ${flairList(flairs)}.`)
  if (submission.flairId !== null && flairs.length > 0 && !flairs.some((f) => f.id === submission.flairId))
    problems.push(`${sr} has no flair ${submission.flairId}: its flairs are ${flairList(flairs)}.`)

  const title = submission.title
  if (req.title_text_min_length != null && title.length < req.title_text_min_length)
    problems.push(`${sr} wants titles of at least ${req.title_text_min_length} characters.`)
  if (req.title_text_max_length != null && title.length > req.title_text_max_length)
    problems.push(`${sr} takes titles of at most ${req.title_text_max_length} characters.`)
  const required = req.title_required_strings ?? []
  if (required.length > 0 && !required.some((s) => lower(title).includes(lower(s))))
    problems.push(`${sr} wants the title to contain one of: ${required.join(", ")}.`)
  const badTitle = (req.title_blacklisted_strings ?? []).find((s) => lower(title).includes(lower(s)))
  if (badTitle !== undefined) problems.push(`${sr} refuses titles containing "${badTitle}".`)

  if (submission.kind === "self") {
    const body = submission.body
    if (req.body_restriction_policy === "required" && body === "")
      problems.push(`${sr} requires a text body: add text after the title.`)
    if (req.body_restriction_policy === "notAllowed" && body !== "")
      problems.push(`${sr} takes text posts with a title only: no text after it.`)
    if (req.body_text_min_length != null && body !== "" && body.length < req.body_text_min_length)
      problems.push(`${sr} wants a body of at least ${req.body_text_min_length} characters.`)
    if (req.body_text_max_length != null && body.length > req.body_text_max_length)
      problems.push(`${sr} takes a body of at most ${req.body_text_max_length} characters.`)
    const badBody = (req.body_blacklisted_strings ?? []).find((s) => lower(body).includes(lower(s)))
    if (badBody !== undefined) problems.push(`${sr} refuses bodies containing "${badBody}".`)
  }
  if (submission.kind === "link" && submission.url !== null) {
    const host = hostOf(submission.url)
    const only = req.domain_whitelist ?? []
    if (only.length > 0 && !only.some((d) => onDomain(host, d)))
      problems.push(`${sr} takes links to ${only.join(", ")} only.`)
    if ((req.domain_blacklist ?? []).some((d) => onDomain(host, d))) problems.push(`${sr} refuses links to ${host}.`)
  }
  return problems
}
