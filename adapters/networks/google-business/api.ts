import { Clock, Effect, Option, Schema } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { decodeReply, type HttpReply, isSuccess, send } from "../shared/http.ts"
import type { RateGate } from "../shared/rateGate.ts"
import type { GoogleBusinessConfig } from "./config.ts"
import { MINUTE_MS, noAnswerError, publishErrorOf, unreadable } from "./errors.ts"

/** The Business Profile endpoints Herald uses (accounts, locations, local posts), their answers decoded. */

const Accounts = Schema.Struct({
  accounts: Schema.optional(
    Schema.Array(Schema.Struct({ name: Schema.String, accountName: Schema.optional(Schema.String) }))
  ),
  nextPageToken: Schema.optional(Schema.String)
})
const Address = Schema.Struct({
  addressLines: Schema.optional(Schema.Array(Schema.String)),
  locality: Schema.optional(Schema.String)
})
const Location = Schema.Struct({
  name: Schema.String,
  title: Schema.optional(Schema.String),
  storefrontAddress: Schema.optional(Address)
})
export type Location = typeof Location.Type
const Locations = Schema.Struct({
  locations: Schema.optional(Schema.Array(Location)),
  nextPageToken: Schema.optional(Schema.String)
})
const LocalPost = Schema.Struct({
  name: Schema.String,
  summary: Schema.optional(Schema.String),
  topicType: Schema.optional(Schema.String),
  state: Schema.optional(Schema.String),
  searchUrl: Schema.optional(Schema.String),
  createTime: Schema.optional(Schema.String)
})
export type LocalPost = typeof LocalPost.Type
const LocalPosts = Schema.Struct({
  localPosts: Schema.optional(Schema.Array(LocalPost)),
  nextPageToken: Schema.optional(Schema.String)
})

const decodeAccounts = decodeReply(Accounts)
const decodeLocations = decodeReply(Locations)
const decodePost = decodeReply(LocalPost)
const decodePosts = decodeReply(LocalPosts)

/** The location a call acts for (its v4 parent, `accounts/{a}/locations/{l}`) and a fresh token. */
export interface Acting {
  readonly parent: string
  readonly accessToken: string
}

/** What a local post create came to. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly post: LocalPost }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

export const CALL_TIMEOUT_MS = 30_000
/** Google's quotas are the project's, per minute: one key closes every call after a 429. */
const GATE_KEY = "google_business"
/** Locations one page asks for (Business Information's maximum). */
const LOCATIONS_PAGE = 100
/** Recent posts a recovery reads (localPosts.list's maximum page). */
const RECENT_POSTS = 100

export type GoogleBusinessApi = ReturnType<typeof makeGoogleBusinessApi>

/** Google's Business Profile APIs, honouring the project's per-minute quota (a 429 closes calls until it passes). */
export const makeGoogleBusinessApi = (config: GoogleBusinessConfig, gate: RateGate) => {
  const call = (
    accessToken: string,
    method: "GET" | "POST" | "DELETE",
    url: string,
    what: string,
    json?: unknown
  ): Effect.Effect<{ reply: HttpReply; now: number }, PublishError> =>
    Effect.gen(function* () {
      const closed = yield* gate.waitFor([GATE_KEY])
      if (closed > 0)
        return yield* PublishError.rateLimited({
          message: `Google's Business Profile quota for this minute is used up; Herald waits ${Math.ceil(closed / 1000)} s.`,
          retryAfterMs: closed
        })
      const reply = yield* send({
        method,
        url,
        timeoutMs: CALL_TIMEOUT_MS,
        headers: {
          authorization: `Bearer ${accessToken}`,
          ...(json === undefined ? {} : { "content-type": "application/json" })
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) })
      }).pipe(Effect.mapError(noAnswerError))
      const now = yield* Clock.currentTimeMillis
      if (reply.status === 429)
        yield* gate.closeUntil(GATE_KEY, now + (publishErrorOf(reply, now, what).retryAfterMs ?? MINUTE_MS))
      return { reply, now }
    })

  const expect = <A>(
    accessToken: string,
    url: string,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ): Effect.Effect<A, PublishError> =>
    Effect.flatMap(call(accessToken, "GET", url, what), ({ reply, now }) =>
      isSuccess(reply)
        ? Option.match(read(reply), { onNone: () => Effect.fail(unreadable(what)), onSome: Effect.succeed })
        : Effect.fail(publishErrorOf(reply, now, what))
    )

  /** Every page of a Google list, following nextPageToken. */
  const allPages = <I, P extends { readonly nextPageToken?: string | undefined }>(
    page: (token: string | null) => Effect.Effect<P, PublishError>,
    items: (p: P) => ReadonlyArray<I> | undefined
  ) =>
    Effect.gen(function* () {
      const all: Array<I> = []
      let token: string | null = null
      do {
        const p: P = yield* page(token)
        all.push(...(items(p) ?? []))
        token = p.nextPageToken ?? null
      } while (token)
      return all
    })

  const withQuery = (url: string, query: Record<string, string | null>) => {
    const u = new URL(url)
    for (const [k, v] of Object.entries(query)) if (v !== null) u.searchParams.set(k, v)
    return u.toString()
  }

  return {
    /** GET /v1/accounts (Account Management): the person's own account and the groups they manage. */
    accounts: (accessToken: string) =>
      allPages(
        (token) =>
          expect(
            accessToken,
            withQuery(`${config.accountsUrl}/v1/accounts`, { pageToken: token }),
            decodeAccounts,
            "the list of business accounts"
          ),
        (p) => p.accounts
      ),

    /** GET /v1/{account}/locations (Business Information), with the fields Herald shows. */
    locations: (accessToken: string, account: string) =>
      allPages(
        (token) =>
          expect(
            accessToken,
            withQuery(`${config.locationsUrl}/v1/${account}/locations`, {
              readMask: "name,title,storefrontAddress",
              pageSize: String(LOCATIONS_PAGE),
              pageToken: token
            }),
            decodeLocations,
            "the list of locations"
          ),
        (p) => p.locations
      ),

    /** POST /v4/{parent}/localPosts. No answer, a 5xx or an unreadable 2xx leave the outcome unknown: Google may have made the post. */
    createPost: (acting: Acting, body: unknown): Effect.Effect<CreateResult> =>
      call(acting.accessToken, "POST", `${config.postsUrl}/v4/${acting.parent}/localPosts`, "the post", body).pipe(
        Effect.map(({ reply, now }): CreateResult => {
          if (isSuccess(reply))
            return Option.match(decodePost(reply), {
              onNone: () => ({ _tag: "Unknown", why: "Google accepted the post but its answer could not be read." }),
              onSome: (post) => ({ _tag: "Created", post })
            })
          if (reply.status >= 500) return { _tag: "Unknown", why: `Google answered HTTP ${reply.status} to the post.` }
          return { _tag: "Refused", error: publishErrorOf(reply, now, "the post") }
        }),
        Effect.catch(
          (e): Effect.Effect<CreateResult> =>
            Effect.succeed(
              e.reason._tag === "Unavailable" ? { _tag: "Unknown", why: e.message } : { _tag: "Refused", error: e }
            )
        )
      ),

    /** GET /v4/{name}: one post, as Google reviews it (PROCESSING, LIVE, REJECTED); none when Google no longer has it. */
    post: (acting: Acting, name: string): Effect.Effect<Option.Option<LocalPost>, PublishError> =>
      Effect.flatMap(
        call(acting.accessToken, "GET", `${config.postsUrl}/v4/${name}`, "the post's state"),
        ({ reply, now }) => {
          if (reply.status === 404) return Effect.succeed(Option.none())
          if (!isSuccess(reply)) return Effect.fail(publishErrorOf(reply, now, "the post's state"))
          return Option.match(decodePost(reply), {
            onNone: () => Effect.fail(unreadable("the post's state")),
            onSome: (post) => Effect.succeed(Option.some(post))
          })
        }
      ),

    /** The location's latest posts, one page (recovery). */
    recentPosts: (acting: Acting) =>
      Effect.map(
        expect(
          acting.accessToken,
          withQuery(`${config.postsUrl}/v4/${acting.parent}/localPosts`, { pageSize: String(RECENT_POSTS) }),
          decodePosts,
          "the location's posts"
        ),
        (p) => p.localPosts ?? []
      ),

    /** DELETE /v4/{name}: a post Google no longer has (404) is already removed. */
    deletePost: (acting: Acting, name: string): Effect.Effect<void, PublishError> =>
      Effect.flatMap(
        call(acting.accessToken, "DELETE", `${config.postsUrl}/v4/${name}`, "the removal of the post"),
        ({ reply, now }) =>
          isSuccess(reply) || reply.status === 404
            ? Effect.void
            : Effect.fail(publishErrorOf(reply, now, "the removal of the post"))
      )
  }
}
