import { Clock, Effect, Option } from "effect"
import type { BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import type { NetworkCredentials } from "../../../application/ports/Connectors.ts"
import {
  type AdvisedPost,
  type Board,
  published,
  PublishError,
  type Publisher,
  type PublishOutcome,
  type PublishRequest,
  type Recovery
} from "../../../application/ports/Publishers.ts"
import type { Account } from "../../../domain/account.ts"
import { type RedditSubmission, redditProblem, redditSubmission } from "../../../domain/redditPost.ts"
import { readAll } from "../shared/media.ts"
import type { Acting, CreateResult, RedditApi } from "./api.ts"
import { decodeHandle, encodeHandle, type RedditHandle } from "./handle.ts"
import { type SubredditRules, subredditProblems } from "./subredditRules.ts"
import { pageUrl, type RedditThing } from "./things.ts"

const CLOCK_SKEW_MS = 2 * 60_000
/** An accepted image post is looked for in the account's posts every 5 s, this many times. */
const LOOK_EVERY_MS = 5000
const MAX_LOOKS = 12

const actingOf = (account: Account, credentials: NetworkCredentials | null): Effect.Effect<Acting, PublishError> =>
  credentials === null
    ? Effect.fail(PublishError.unauthorized({ message: "The Reddit account has no stored access." }))
    : Effect.succeed({ user: account.username, accessToken: credentials.accessToken })

const same = (a: string | null | undefined, b: string) => (a ?? "").trim().toLowerCase() === b.trim().toLowerCase()
const since = (thing: RedditThing, startedAt: number) =>
  thing.created_utc == null || thing.created_utc * 1000 >= startedAt - CLOCK_SKEW_MS

/** The account's post that is this submission's, made since `startedAt`. */
const findPost = (posts: ReadonlyArray<RedditThing>, submission: RedditSubmission, startedAt: number) =>
  posts.find(
    (p) => same(p.subreddit, submission.subreddit ?? "") && (p.title ?? "") === submission.title && since(p, startedAt)
  )

const refusedBySubreddit = (subreddit: string, problems: ReadonlyArray<string>) =>
  PublishError.refused({
    code: "upstream_rejected",
    message: `Reddit would refuse the post in r/${subreddit}: ${problems.join(" ")}`,
    networkCode: "SUBREDDIT_RULES"
  })

/**
 * Posts to Reddit: a text, link or image post (POST /api/submit) to the post's `reddit.subreddit`,
 * checked first against the subreddit's rules; a first comment as a comment (POST /api/comment).
 * Reddit has no idempotency key: a post whose answer was lost is looked for among the account's
 * posts made since the attempt started (same subreddit and title), a comment among its comments.
 */
export const make = (deps: { readonly api: RedditApi; readonly blobs: BlobStoreShape }): Publisher => {
  const rulesOf = (acting: Acting, subreddit: string, flairId: string | null) =>
    Effect.gen(function* () {
      const [about, requirements] = yield* Effect.all([
        deps.api.about(acting, subreddit),
        deps.api.requirements(acting, subreddit)
      ])
      const flairs =
        flairId !== null || requirements.is_flair_required === true ? yield* deps.api.flairs(acting, subreddit) : []
      return { about, requirements, flairs } satisfies SubredditRules
    }).pipe(
      Effect.mapError((e) =>
        e.reason._tag === "Refused" && /HTTP 404/.test(e.message)
          ? PublishError.refused({
              code: "upstream_rejected",
              message: `Reddit has no subreddit r/${subreddit} (or it is banned): ${e.message}`,
              networkCode: "SUBREDDIT_NOEXIST"
            })
          : e
      )
    )

  const outcomeOf = (result: CreateResult, onAccepted: () => Effect.Effect<PublishOutcome, PublishError>) => {
    switch (result._tag) {
      case "Created":
        return Effect.succeed(published(result.name, pageUrl(result.url)))
      case "Accepted":
        return onAccepted()
      case "Refused":
        return Effect.fail(result.error)
      case "Unknown":
        return Effect.fail(
          PublishError.outcomeUnknown({ message: `The outcome of the Reddit post is unknown: ${result.why}` })
        )
    }
  }

  const lookLater = (startedAt: number, looks: number, checkAfterMs: number): PublishOutcome => ({
    _tag: "Processing",
    handle: encodeHandle({ v: 1, stage: "accepted", startedAt, looks }),
    checkAfterMs
  })

  /**
   * An accepted image post, looked for among the account's posts; not there yet: look again later. A
   * throttled or failed look keeps the handle (the pipeline drops it on such errors, and would post again).
   */
  const look = (acting: Acting, submission: RedditSubmission, startedAt: number, looks: number) =>
    deps.api.submitted(acting).pipe(
      Effect.flatMap((posts): Effect.Effect<PublishOutcome, PublishError> => {
        const made = findPost(posts, submission, startedAt)
        if (made !== undefined) return Effect.succeed(published(made.name, pageUrl(made.permalink)))
        if (looks >= MAX_LOOKS)
          return Effect.fail(
            PublishError.outcomeUnknown({
              message: `Reddit took the image post but it is not among the account's posts after ${looks} looks (a subreddit's filter may hold it).`
            })
          )
        return Effect.succeed(lookLater(startedAt, looks + 1, LOOK_EVERY_MS))
      }),
      Effect.catchIf(
        (e) => e.retryable,
        (e) => Effect.succeed(lookLater(startedAt, looks, e.retryAfterMs ?? LOOK_EVERY_MS))
      )
    )

  const submit = (request: PublishRequest, acting: Acting, submission: RedditSubmission, startedAt: number) =>
    Effect.gen(function* () {
      const subreddit = submission.subreddit!
      const problems = subredditProblems(submission, yield* rulesOf(acting, subreddit, submission.flairId))
      if (problems.length > 0) return yield* Effect.fail(refusedBySubreddit(subreddit, problems))
      let url = submission.url ?? undefined
      if (submission.kind === "image") {
        const image = request.media.find((m) => m.type === "image")!
        const lease = yield* deps.api.lease(
          acting,
          image.filename || `image.${image.mimeType.split("/")[1]}`,
          image.mimeType
        )
        const bytes = yield* readAll(deps.blobs, image.blobKey)
        url = yield* deps.api.upload(lease.args.action, lease.args.fields, new Blob([bytes], { type: image.mimeType }))
      }
      const result = yield* deps.api.submit(acting, {
        sr: subreddit,
        kind: submission.kind,
        title: submission.title,
        ...(submission.kind === "self" ? { text: submission.body } : { url }),
        ...(submission.flairId === null ? {} : { flair_id: submission.flairId })
      })
      return yield* outcomeOf(result, () => look(acting, submission, startedAt, 1))
    })

  const submissionOf = (request: PublishRequest) => {
    const submission = redditSubmission(request.content, request.media, request.options?.reddit)
    const problem = redditProblem(submission, request.media)
    return problem === null
      ? Effect.succeed(submission)
      : Effect.fail(PublishError.refused({ code: "validation_failed", message: problem.message }))
  }

  const publish = (request: PublishRequest, handleText?: string) =>
    Effect.gen(function* () {
      const acting = yield* actingOf(request.account, request.credentials)
      if (request.replyTo !== null)
        return yield* Effect.flatMap(
          deps.api.comment(acting, request.replyTo.parentId, request.content.trim()),
          (result) => outcomeOf(result, () => Effect.die("a comment is always named"))
        )
      const submission = yield* submissionOf(request)
      const now = yield* Clock.currentTimeMillis
      const handle = Option.getOrElse(
        decodeHandle(handleText),
        (): RedditHandle => ({ v: 1, stage: "sending", startedAt: now })
      )
      return yield* handle.stage === "accepted"
        ? look(acting, submission, handle.startedAt, handle.looks)
        : submit(request, acting, submission, handle.startedAt)
    })

  const recover = (request: PublishRequest, handleText: string | null) =>
    Effect.gen(function* () {
      const found = decodeHandle(handleText)
      if (Option.isNone(found)) return { _tag: "Unknown" } satisfies Recovery
      const startedAt = found.value.startedAt
      const acting = yield* actingOf(request.account, request.credentials)
      if (request.replyTo !== null) {
        const parent = request.replyTo.parentId
        const comments = yield* deps.api.comments(acting)
        const made = comments.find(
          (c) =>
            (c.link_id === parent || c.parent_id === parent) &&
            (c.body ?? "").trim() === request.content.trim() &&
            since(c, startedAt)
        )
        return made === undefined
          ? ({ _tag: "NotPublished" } satisfies Recovery)
          : ({
              _tag: "Published",
              published: { externalId: made.name, url: pageUrl(made.permalink) }
            } satisfies Recovery)
      }
      const submission = yield* submissionOf(request)
      const made = findPost(yield* deps.api.submitted(acting), submission, startedAt)
      return made === undefined
        ? ({ _tag: "NotPublished" } satisfies Recovery)
        : ({ _tag: "Published", published: { externalId: made.name, url: pageUrl(made.permalink) } } satisfies Recovery)
    })

  /**
   * Where the account can post, for a post's reddit.subreddit: the subreddits it moderates, is an
   * approved user of, or subscribes to (GET /subreddits/mine/*), each once, in that order. Any public
   * subreddit takes posts too; these are the ones the account knows.
   */
  const subredditsOf = (acting: Acting) =>
    Effect.gen(function* () {
      const seen = new Map<string, Board>()
      for (const where of ["moderator", "contributor", "subscriber"] as const)
        for (const s of yield* deps.api.mySubreddits(acting, where)) {
          const key = s.display_name.toLowerCase()
          if (!seen.has(key))
            seen.set(key, {
              id: s.display_name,
              name: s.display_name_prefixed ?? `r/${s.display_name}`,
              description: s.title?.trim() || s.public_description?.trim() || null,
              privacy: s.subreddit_type ?? null
            })
        }
      return [...seen.values()]
    })

  /** Dry-run advice: the subreddit's rules read with the account's credentials, and what they would refuse. */
  const advise = (account: Account, _dueAt: number, post: AdvisedPost) =>
    Effect.gen(function* () {
      const submission = redditSubmission(post.text?.content ?? "", post.media, post.options.reddit)
      if (submission.subreddit === null || post.credentials === undefined) return []
      const credentials = yield* post.credentials
      const rules = yield* Effect.flatMap(actingOf(account, credentials), (acting) =>
        rulesOf(acting, submission.subreddit!, submission.flairId)
      ).pipe(Effect.result)
      const sr = `r/${submission.subreddit}`
      if (rules._tag === "Failure")
        return [
          `Herald could not read ${sr}'s rules now (${rules.failure.message}); they are checked again when the post goes out.`
        ]
      const problems = subredditProblems(submission, rules.success)
      const kind = { self: "a text post", link: "a link post", image: "an image post" }[submission.kind]
      return [
        `Goes to ${sr} as ${kind} titled "${submission.title}"${submission.titleFromText ? " (the text's first line; set reddit.title to choose it)" : ""}.`,
        ...(problems.length === 0 ? [] : [`Reddit would refuse it in ${sr}: ${problems.join(" ")}`])
      ]
    })

  return {
    platform: "reddit",
    prepare: () =>
      Effect.map(Clock.currentTimeMillis, (now) => encodeHandle({ v: 1, stage: "sending", startedAt: now })),
    publish,
    recover,
    advise,
    boards: (account, credentials) => Effect.flatMap(actingOf(account, credentials), (acting) => subredditsOf(acting)),
    // A post or its first comment alike: POST /api/del with its fullname (t3_ or t1_).
    unpublish: (request) =>
      Effect.flatMap(actingOf(request.account, request.credentials), (acting) =>
        deps.api.del(acting, request.externalId)
      )
  }
}
