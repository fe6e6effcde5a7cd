import { Cache, Duration, Effect, Exit, Option, Schema } from "effect"
import { decodeReply, type HttpReply, isSuccess } from "../shared/http.ts"
import { CALL_TIMEOUT_MS, type MastodonClient, UPLOAD_TIMEOUT_MS } from "./client.ts"
import { defaultLimits, type InstanceLimits, InstanceReply, limitsOf } from "./instanceLimits.ts"

/** Mastodon's documented entities, as far as Herald reads them (docs.joinmastodon.org/entities/). */

const Str = Schema.String
const optional = Schema.optional

export const AppReply = Schema.Struct({ client_id: Str, client_secret: Str })
export const TokenReply = Schema.Struct({ access_token: Str, scope: optional(Str) })
export const AccountReply = Schema.Struct({
  id: Str,
  username: Str,
  acct: optional(Str),
  display_name: optional(Str),
  avatar: optional(Schema.NullOr(Str)),
  url: optional(Schema.NullOr(Str))
})
export type AccountReply = typeof AccountReply.Type

const Int = Schema.Number

/** A MediaAttachment: `url` is null while the instance still processes the file. */
export const MediaReply = Schema.Struct({ id: Str, url: optional(Schema.NullOr(Str)) })
export const StatusReply = Schema.Struct({
  id: Str,
  url: optional(Schema.NullOr(Str)),
  visibility: optional(Str),
  spoiler_text: optional(Str)
})

/** A status's public counts (Mastodon's Status entity), for its figures. */
export const StatusCounts = Schema.Struct({
  id: Str,
  favourites_count: optional(Int),
  replies_count: optional(Int),
  reblogs_count: optional(Int)
})
export type StatusCounts = typeof StatusCounts.Type

const readApp = decodeReply(AppReply)
const readToken = decodeReply(TokenReply)
const readAccount = decodeReply(AccountReply)
const readInstance = decodeReply(InstanceReply)
const readMedia = decodeReply(MediaReply)
const readStatus = decodeReply(StatusReply)
const readCounts = decodeReply(StatusCounts)
const readCountsList = decodeReply(Schema.Array(StatusCounts))

/** An answer Herald did not expect: a refusal, or a success whose body it cannot read. */
export type Answer<A> =
  | { readonly _tag: "Ok"; readonly value: A }
  | { readonly _tag: "Refused"; readonly reply: HttpReply }
  | { readonly _tag: "Unreadable"; readonly reply: HttpReply }

const answer =
  <A>(read: (reply: HttpReply) => Option.Option<A>) =>
  (reply: HttpReply): Answer<A> => {
    if (!isSuccess(reply)) return { _tag: "Refused", reply }
    const value = read(reply)
    return Option.isSome(value) ? { _tag: "Ok", value: value.value } : { _tag: "Unreadable", reply }
  }

/** A MediaAttachment as an upload: ready once the instance answers 200 with its url. */
const answerUpload = (reply: HttpReply): Answer<Upload> => {
  const read = answer(readMedia)(reply)
  return read._tag === "Ok"
    ? { _tag: "Ok", value: { id: read.value.id, ready: reply.status === 200 && (read.value.url ?? null) !== null } }
    : read
}

/** Who acts: the account's instance, its id there, its token. */
export interface Acting {
  readonly origin: string
  readonly accountId: string
  readonly accessToken: string
}

export interface NewStatus {
  readonly status: string
  readonly media_ids?: ReadonlyArray<string>
  readonly poll?: { readonly options: ReadonlyArray<string>; readonly expires_in: number }
  readonly in_reply_to_id?: string
  readonly spoiler_text?: string
  readonly visibility: "public" | "unlisted" | "private" | "direct"
}

/** A media upload's state: ready (its url is set), or still processed by the instance. */
export type Upload = { readonly id: string; readonly ready: boolean }

export type MastodonApi = Effect.Success<ReturnType<typeof makeMastodonApi>>

/** Mastodon's REST API (docs.joinmastodon.org/methods/), one function per call Herald makes. */
export const makeMastodonApi = (client: MastodonClient) => {
  const app = (origin: string, method: "GET" | "POST", path: string, body?: URLSearchParams) =>
    client.call({
      origin,
      method,
      path,
      accessToken: null,
      account: null,
      ...(body === undefined ? {} : { form: body })
    })
  const as = (acting: Acting) => ({
    origin: acting.origin,
    accessToken: acting.accessToken,
    account: acting.accountId
  })

  const instance = (origin: string, path: string) =>
    Effect.map(app(origin, "GET", path), (reply) =>
      isSuccess(reply) ? Option.map(readInstance(reply), limitsOf) : Option.none<InstanceLimits>()
    )
  /**
   * An instance's limits, read at most once an hour per instance (a failure is not kept): v2, or v1
   * on servers before Mastodon 4.0 and on forks without v2.
   */
  const instances = Cache.makeWith(
    (origin: string) =>
      Effect.flatMap(instance(origin, "/api/v2/instance"), (found) =>
        Option.isSome(found) ? Effect.succeed(found) : instance(origin, "/api/v1/instance")
      ),
    {
      capacity: 1024,
      timeToLive: (exit) => (Exit.isSuccess(exit) && Option.isSome(exit.value) ? Duration.hours(1) : Duration.zero)
    }
  )

  return Effect.map(instances, (cache) => ({
    /** POST /api/v1/apps: Herald registers itself on the instance. */
    registerApp: (
      origin: string,
      fields: { name: string; redirectUri: string; scopes: string; website: string | null }
    ) =>
      Effect.map(
        app(
          origin,
          "POST",
          "/api/v1/apps",
          new URLSearchParams({
            client_name: fields.name,
            redirect_uris: fields.redirectUri,
            scopes: fields.scopes,
            ...(fields.website === null ? {} : { website: fields.website })
          })
        ),
        answer(readApp)
      ),
    /** POST /oauth/token with the authorization code. */
    exchangeCode: (
      origin: string,
      fields: { clientId: string; clientSecret: string; code: string; redirectUri: string; scopes: string }
    ) =>
      Effect.map(
        app(
          origin,
          "POST",
          "/oauth/token",
          new URLSearchParams({
            grant_type: "authorization_code",
            code: fields.code,
            client_id: fields.clientId,
            client_secret: fields.clientSecret,
            redirect_uri: fields.redirectUri,
            scope: fields.scopes
          })
        ),
        answer(readToken)
      ),
    /** GET /api/v1/accounts/verify_credentials: the account the token acts for. */
    me: (origin: string, accessToken: string) =>
      Effect.map(
        client.call({ origin, method: "GET", path: "/api/v1/accounts/verify_credentials", accessToken, account: null }),
        answer(readAccount)
      ),
    /** The instance's limits (Mastodon's defaults when it cannot be read now). */
    limits: (origin: string): Effect.Effect<InstanceLimits> =>
      Effect.map(
        Effect.orElseSucceed(Cache.get(cache, origin), () => Option.none<InstanceLimits>()),
        Option.getOrElse(() => defaultLimits)
      ),
    /** POST /api/v2/media: 200 with its url when processed at once, 202 with a null url while processing. */
    upload: (acting: Acting, file: Blob, filename: string, description: string | null) => {
      const form = new FormData()
      form.append("file", file, filename)
      if (description !== null) form.append("description", description)
      return Effect.map(
        client.call({
          ...as(acting),
          method: "POST",
          path: "/api/v2/media",
          limit: "media",
          form,
          timeoutMs: UPLOAD_TIMEOUT_MS
        }),
        answerUpload
      )
    },
    /** GET /api/v1/media/:id: 206 while the instance processes it, 200 with its url once done. */
    media: (acting: Acting, id: string) =>
      Effect.map(
        client.call({ ...as(acting), method: "GET", path: `/api/v1/media/${encodeURIComponent(id)}` }),
        answerUpload
      ),
    /** GET /api/v1/statuses/:id: a status's visibility and content warning (what a reply to it takes). */
    status: (acting: Acting, id: string) =>
      Effect.map(
        client.call({ ...as(acting), method: "GET", path: `/api/v1/statuses/${encodeURIComponent(id)}` }),
        answer(readStatus)
      ),
    /** GET /api/v1/statuses/:id, for its counts. */
    counts: (acting: Acting, id: string) =>
      Effect.map(
        client.call({ ...as(acting), method: "GET", path: `/api/v1/statuses/${encodeURIComponent(id)}` }),
        answer(readCounts)
      ),
    /**
     * GET /api/v1/statuses?id[]=... (Mastodon 4.3+): the statuses among `ids` the account may see, a
     * deleted one left out. An older server has no such route and answers 404.
     */
    countsOf: (acting: Acting, ids: ReadonlyArray<string>) => {
      const query = new URLSearchParams()
      for (const id of ids) query.append("id[]", id)
      return Effect.map(
        client.call({ ...as(acting), method: "GET", path: `/api/v1/statuses?${query}` }),
        answer(readCountsList)
      )
    },
    /**
     * DELETE /api/v1/statuses/:id: answers the deleted status (its source text, for "delete and
     * redraft"); 404 when the account has no such status. Deletes have a window of their own.
     */
    deleteStatus: (acting: Acting, id: string) =>
      client.call({
        ...as(acting),
        method: "DELETE",
        path: `/api/v1/statuses/${encodeURIComponent(id)}`,
        limit: "delete"
      }),
    /** POST /api/v1/statuses, with an idempotency key: a repeat within an hour answers the status already made. */
    createStatus: (acting: Acting, status: NewStatus, idempotencyKey: string) =>
      Effect.map(
        client.call({
          ...as(acting),
          method: "POST",
          path: "/api/v1/statuses",
          json: status,
          idempotencyKey,
          timeoutMs: CALL_TIMEOUT_MS
        }),
        answer(readStatus)
      )
  }))
}
