import { Clock, Effect, Option } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, isSuccess, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { RedditConfig } from "./config.ts"
import { apiError, noAnswerError, publishErrorOf, resetAt, unreadable, waitOf } from "./errors.ts"
import {
  decodeAbout,
  decodeCommented,
  decodeFlairs,
  decodeLease,
  decodeListing,
  decodeMe,
  decodeMySubreddits,
  decodeRequirements,
  decodeSubmitted,
  type MySubreddit,
  type MySubredditsPage,
  type RedditThing
} from "./things.ts"

/** The account a call acts for (its Reddit name keys its rate window) and its fresh token. */
export interface Acting {
  readonly user: string
  readonly accessToken: string
}

/** What a create (submit or comment) came to. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly name: string; readonly url: string | null }
  /** Reddit took an image post but names it only over a websocket: it is looked for in the account's posts. */
  | { readonly _tag: "Accepted" }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

export const CALL_TIMEOUT_MS = 30_000
const UPLOAD_TIMEOUT_MS = 300_000

export type RedditApi = ReturnType<typeof makeRedditApi>

const form = (fields: Record<string, string | undefined>) => {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, value)
  return body
}

/**
 * Reddit's OAuth API (https://oauth.reddit.com) with Herald's User-Agent on every call, honouring its
 * limits: when X-Ratelimit-Remaining reaches 0, or on a 429, the account's calls wait until
 * X-Ratelimit-Reset without reaching Reddit.
 */
export const makeRedditApi = (config: RedditConfig, gate: RateGate) => {
  const call = (
    acting: { readonly user: string | null; readonly accessToken: string },
    method: "GET" | "POST",
    path: string,
    body?: URLSearchParams
  ) =>
    Effect.gen(function* () {
      const closed = acting.user === null ? 0 : yield* gate.waitFor([acting.user])
      if (closed > 0)
        return yield* PublishError.rateLimited({
          message: `Reddit's limit for this account is used up; Herald waits ${Math.ceil(closed / 1000)} s.`,
          retryAfterMs: closed
        })
      const reply = yield* send({
        method,
        url: `${config.apiUrl}${path}`,
        timeoutMs: CALL_TIMEOUT_MS,
        headers: { authorization: `bearer ${acting.accessToken}`, "user-agent": config.userAgent },
        ...(body === undefined ? {} : { body })
      }).pipe(Effect.mapError(noAnswerError))
      const now = yield* Clock.currentTimeMillis
      if (acting.user !== null) {
        const remaining = Number(reply.headers.get("x-ratelimit-remaining"))
        const used = reply.headers.has("x-ratelimit-remaining") && Number.isFinite(remaining) && remaining < 1
        if (reply.status === 429) yield* gate.closeUntil(acting.user, now + waitOf(reply, now))
        else if (used) yield* gate.closeUntil(acting.user, resetAt(reply.headers, now) ?? now + 60_000)
      }
      return { reply, now }
    })

  const expect = <A>(
    c: Effect.Effect<{ reply: HttpReply; now: number }, PublishError>,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ) =>
    Effect.flatMap(c, ({ reply, now }) =>
      isSuccess(reply)
        ? Option.match(read(reply), { onNone: () => Effect.fail(unreadable(what)), onSome: Effect.succeed })
        : Effect.fail(publishErrorOf(reply, now))
    )

  /** A create: a lost answer or a 5xx leaves the outcome unknown (Reddit may have made it); a refusal in a 200 is Reddit's. */
  const create = (
    acting: Acting,
    path: string,
    fields: URLSearchParams,
    what: string,
    read: (reply: HttpReply) => CreateResult | null
  ): Effect.Effect<CreateResult> =>
    call(acting, "POST", path, fields).pipe(
      Effect.map(({ reply, now }): CreateResult => {
        if (reply.status >= 500) return { _tag: "Unknown", why: `Reddit answered ${reply.status} to the ${what}.` }
        if (!isSuccess(reply)) return { _tag: "Refused", error: publishErrorOf(reply, now) }
        return read(reply) ?? { _tag: "Unknown", why: `Reddit's answer to the ${what} could not be read.` }
      }),
      Effect.catch(
        (e): Effect.Effect<CreateResult> =>
          Effect.succeed(
            e.reason._tag === "Unavailable" ? { _tag: "Unknown", why: e.message } : { _tag: "Refused", error: e }
          )
      )
    )

  const listing = (acting: Acting, path: string, what: string) =>
    Effect.map(expect(call(acting, "GET", path), decodeListing, what), (l) =>
      l.data.children.map((c): RedditThing => c.data)
    )

  const sr = (subreddit: string) => encodeURIComponent(subreddit)

  return {
    me: (accessToken: string) =>
      expect(call({ user: null, accessToken }, "GET", "/api/v1/me"), decodeMe, "the account's profile"),

    about: (acting: Acting, subreddit: string) =>
      Effect.map(
        expect(call(acting, "GET", `/r/${sr(subreddit)}/about`), decodeAbout, `r/${subreddit}'s about`),
        (a) => a.data
      ),

    requirements: (acting: Acting, subreddit: string) =>
      expect(
        call(acting, "GET", `/api/v1/${sr(subreddit)}/post_requirements`),
        decodeRequirements,
        `r/${subreddit}'s post requirements`
      ),

    /** The subreddit's link flairs; a subreddit that lets no one choose one answers 403: none. */
    flairs: (acting: Acting, subreddit: string) =>
      Effect.flatMap(call(acting, "GET", `/r/${sr(subreddit)}/api/link_flair_v2`), ({ reply, now }) =>
        reply.status === 403 || reply.status === 404
          ? Effect.succeed([])
          : isSuccess(reply)
            ? Option.match(decodeFlairs(reply), {
                onNone: () => Effect.fail(unreadable(`r/${subreddit}'s flairs`)),
                onSome: Effect.succeed
              })
            : Effect.fail(publishErrorOf(reply, now))
      ),

    /** POST /api/submit (api_type=json). */
    submit: (acting: Acting, fields: Record<string, string | undefined>) =>
      create(acting, "/api/submit", form({ api_type: "json", resubmit: "true", ...fields }), "post", (reply) =>
        Option.match(decodeSubmitted(reply), {
          onNone: () => null,
          onSome: ({ json }): CreateResult => {
            const refused = apiError(json.errors, "post")
            if (refused !== null) return { _tag: "Refused", error: refused }
            const name = json.data?.name ?? (json.data?.id === undefined ? undefined : `t3_${json.data.id}`)
            return name === undefined ? { _tag: "Accepted" } : { _tag: "Created", name, url: json.data?.url ?? null }
          }
        })
      ),

    /** POST /api/comment on `thingId` (a post's or comment's fullname). */
    comment: (acting: Acting, thingId: string, text: string) =>
      create(acting, "/api/comment", form({ api_type: "json", thing_id: thingId, text }), "comment", (reply) =>
        Option.match(decodeCommented(reply), {
          onNone: () => null,
          onSome: ({ json }): CreateResult | null => {
            const refused = apiError(json.errors, "comment")
            if (refused !== null) return { _tag: "Refused", error: refused }
            const made = json.data?.things[0]?.data
            return made === undefined
              ? null
              : {
                  _tag: "Created",
                  name: made.name,
                  url: made.permalink ? `https://www.reddit.com${made.permalink}` : null
                }
          }
        })
      ),

    /** POST /api/del: Reddit answers 200 for a thing already deleted too. */
    del: (acting: Acting, fullname: string) =>
      Effect.flatMap(call(acting, "POST", "/api/del", form({ id: fullname })), ({ reply, now }) =>
        isSuccess(reply) || reply.status === 404 ? Effect.void : Effect.fail(publishErrorOf(reply, now))
      ),

    /** The account's newest posts (recovery). */
    submitted: (acting: Acting) =>
      listing(
        acting,
        `/user/${encodeURIComponent(acting.user)}/submitted?sort=new&limit=25&raw_json=1`,
        "the account's posts"
      ),

    /** The account's newest comments (recovery). */
    comments: (acting: Acting) =>
      listing(
        acting,
        `/user/${encodeURIComponent(acting.user)}/comments?sort=new&limit=25&raw_json=1`,
        "the account's comments"
      ),

    /** GET /subreddits/mine/{where} (moderator, contributor, subscriber), every page up to `maxPages` of 100. */
    mySubreddits: (acting: Acting, where: "moderator" | "contributor" | "subscriber", maxPages = 10) =>
      Effect.gen(function* () {
        const all: Array<MySubreddit> = []
        let after: string | null | undefined = null
        for (let page = 0; page < maxPages; page++) {
          const query = new URLSearchParams({ limit: "100", ...(after ? { after } : {}) })
          const answer: MySubredditsPage = yield* expect(
            call(acting, "GET", `/subreddits/mine/${where}?${query}`),
            decodeMySubreddits,
            `the account's subreddits (${where})`
          )
          all.push(...answer.data.children.map((c) => c.data))
          after = answer.data.after
          if (!after) break
        }
        return all
      }),

    /** POST /api/media/asset.json: an upload lease (where to post the file, with which fields). */
    lease: (acting: Acting, filename: string, mimeType: string) =>
      expect(
        call(acting, "POST", "/api/media/asset.json", form({ filepath: filename, mimetype: mimeType })),
        decodeLease,
        "an image upload's lease"
      ),

    /** The file to the lease's action (protocol-relative: Herald's API scheme), every field first; the asset's URL. */
    upload: (action: string, fields: ReadonlyArray<{ readonly name: string; readonly value: string }>, file: Blob) =>
      Effect.gen(function* () {
        const target = action.startsWith("//") ? `${new URL(config.apiUrl).protocol}${action}` : action
        const body = new FormData()
        for (const field of fields) body.set(field.name, field.value)
        body.set("file", file)
        const reply = yield* send({ method: "POST", url: target, body, timeoutMs: UPLOAD_TIMEOUT_MS }).pipe(
          Effect.mapError(noAnswerError)
        )
        if (!isSuccess(reply))
          return yield* Effect.fail(
            reply.status >= 500
              ? PublishError.unavailable({
                  message: `Reddit's upload store could not take the image (HTTP ${reply.status}).`
                })
              : PublishError.refused({
                  code: "upstream_rejected",
                  message: `Reddit's upload store refused the image (HTTP ${reply.status}).`
                })
          )
        const key = fields.find((f) => f.name === "key")?.value
        const located = /<Location>([^<]+)<\/Location>/.exec(reply.text)?.[1]
        return located !== undefined ? decodeURIComponent(located) : `${target}/${key ?? ""}`
      })
  }
}
