import { createHmac } from "node:crypto"
import { Clock, Effect, Option, Schema, Redacted } from "effect"
import { PublishError } from "../../../application/ports/Publishers.ts"
import { type HttpReply, isSuccess, jsonOf, type NoAnswer, send } from "../shared/http.ts"
import { isThrottled, metaProblem, noAnswerError, publishErrorOf, throttleWaitMs, usageWaitMs } from "./errors.ts"
import type { RateGate } from "../shared/rateGate.ts"

/** Meta said (on this call or an earlier one) that the account or the app must wait. */
export class GraphThrottled extends Schema.TaggedError<GraphThrottled>()("GraphThrottled", {
  message: Schema.String,
  retryAfterMs: Schema.Number
}) {}

export const GRAPH_TIMEOUT_MS = 30_000

export interface GraphCall {
  readonly method: "GET" | "POST" | "DELETE"
  /** A path under `{apiUrl}/{version}` ("/me/accounts"), or an absolute URL Meta handed out (an upload URL). */
  readonly path: string
  readonly token: string
  /** Query parameters (GET) or form fields (POST); `appsecret_proof` is added. */
  readonly params?: Readonly<Record<string, string>>
  /** A multipart body instead (a file among the fields); `appsecret_proof` is added. */
  readonly form?: FormData
  /** Sends the token as `Authorization: OAuth <token>` (Meta's upload hosts) rather than `Bearer`. */
  readonly tokenInHeader?: boolean
  readonly headers?: Readonly<Record<string, string>>
  /** The account the call acts for (its limits); null before it is known (connecting). */
  readonly acting: string | null
  /** Endpoints Meta serves without a version (Instagram's and Threads' /access_token, /refresh_access_token). */
  readonly unversioned?: boolean
  readonly timeoutMs?: number
}

/** What a call that creates something came to: its id, Meta's refusal, or no way to tell whether Meta made it. */
export type CreateResult =
  | { readonly _tag: "Created"; readonly id: string }
  | { readonly _tag: "Refused"; readonly error: PublishError }
  | { readonly _tag: "Unknown"; readonly why: string }

export const decoder = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const run = Schema.decodeUnknownOption(schema)
  return (reply: HttpReply): Option.Option<S["Type"]> => run(jsonOf(reply))
}

const Created = Schema.Struct({ id: Schema.Union([Schema.String, Schema.Number]) })
const decodeCreated = decoder(Created)
const createdIdOf = (reply: HttpReply) => Option.map(decodeCreated(reply), (created) => String(created.id))

const APP = "app"

export type Graph = ReturnType<typeof makeGraph>

/**
 * One Meta API (Facebook's, Instagram's or Threads' Graph host) for one network: versioned URLs, the
 * token as Meta documents it, a timeout on every call, and Meta's limits honoured. A throttling
 * answer (codes 4, 17, 32, 613, 80000-80014, 429, the daily cap) or usage headers naming
 * `estimated_time_to_regain_access` close the account (or, for app-wide code 4, the app) until
 * then: later calls are refused as GraphThrottled without reaching Meta.
 */
export const makeGraph = (settings: {
  readonly network: string
  readonly apiUrl: string
  readonly version: string
  readonly gate: RateGate
  /** The app's secret, for each call's appsecret_proof. */
  readonly appSecret: Redacted.Redacted<string>
}) => {
  const { network, gate } = settings
  const appSecretProof = (token: string) =>
    createHmac("sha256", Redacted.value(settings.appSecret)).update(token).digest("hex")
  const url = (path: string, unversioned = false) =>
    /^https?:\/\//.test(path) ? path : `${settings.apiUrl}${unversioned ? "" : `/${settings.version}`}${path}`
  const keysOf = (acting: string | null) => (acting === null ? [APP] : [APP, acting])

  const learn = (c: GraphCall, reply: HttpReply) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const problem = isSuccess(reply) ? null : metaProblem(reply)
      if (!isSuccess(reply) && isThrottled(reply, problem)) {
        const wait = problem === null ? (usageWaitMs(reply.headers) ?? 60_000) : throttleWaitMs(reply, problem)
        // Code 4 is the app's limit (every account waits); the others are the account's or the page's.
        yield* gate.closeUntil(problem?.code === 4 || c.acting === null ? APP : c.acting, now + wait)
        return new GraphThrottled({
          message: `${network} is rate limiting this account (${problem?.message ?? `HTTP ${reply.status}`}); Herald waits ${Math.ceil(wait / 1000)} s.`,
          retryAfterMs: wait
        })
      }
      const blocked = usageWaitMs(reply.headers)
      if (blocked !== undefined) yield* gate.closeUntil(c.acting ?? APP, now + blocked)
      return null
    })

  const call = (c: GraphCall): Effect.Effect<HttpReply, GraphThrottled | NoAnswer> =>
    Effect.gen(function* () {
      const closed = yield* gate.waitFor(keysOf(c.acting))
      if (closed > 0)
        return yield* new GraphThrottled({
          message: `${network}'s rate limit for this account is used up; Herald waits ${Math.ceil(closed / 1000)} s before calling again.`,
          retryAfterMs: closed
        })
      // The token rides in the Authorization header, never in a URL (proxy logs keep URLs); the proof
      // that Herald holds the app secret goes with every call, as apps with "Require App Secret" need.
      const headers: Record<string, string> = {
        ...c.headers,
        authorization: `${c.tokenInHeader === true ? "OAuth" : "Bearer"} ${c.token}`
      }
      const params = new URLSearchParams(c.params)
      const proof = appSecretProof(c.token)
      if (c.form !== undefined) c.form.set("appsecret_proof", proof)
      else params.set("appsecret_proof", proof)
      const target = url(c.path, c.unversioned)
      const timeoutMs = c.timeoutMs ?? GRAPH_TIMEOUT_MS
      const reply = yield* c.method === "GET" || c.method === "DELETE"
        ? send({
            method: c.method,
            url: `${target}${[...params].length > 0 ? `${target.includes("?") ? "&" : "?"}${params}` : ""}`,
            headers,
            timeoutMs
          })
        : send({
            method: c.method,
            url: target,
            headers,
            timeoutMs,
            body: c.form ?? ([...params].length > 0 ? params : new URLSearchParams())
          })
      const throttled = yield* learn(c, reply)
      if (throttled !== null) return yield* throttled
      return reply
    })

  const throttledError = (e: GraphThrottled) =>
    PublishError.rateLimited({ message: e.message, retryAfterMs: e.retryAfterMs })
  const asPublishError = (e: GraphThrottled | NoAnswer) =>
    e._tag === "GraphThrottled" ? throttledError(e) : noAnswerError(network, e)

  /** A call whose non-2xx answers are Meta's refusals and whose 2xx body `read` decodes. */
  const expect = <A>(
    c: GraphCall,
    read: (r: HttpReply) => Option.Option<A>,
    what: string
  ): Effect.Effect<A, PublishError> =>
    call(c).pipe(
      Effect.mapError(asPublishError),
      Effect.flatMap((r) => {
        if (!isSuccess(r)) return Effect.fail(publishErrorOf(network, r))
        return Option.match(read(r), {
          onNone: () =>
            Effect.fail(PublishError.unavailable({ message: `${network}'s answer to ${what} could not be read.` })),
          onSome: Effect.succeed
        })
      })
    )

  /**
   * A call that makes something live (a post, a comment, a publish), whose id `idOf` reads from the
   * answer (`{id}` unless told otherwise). No answer, a 5xx or an unreadable 2xx leave the outcome unknown: Meta may have made it, so the caller must look before
   * sending again. A throttle or a refusal means nothing was made.
   */
  const create = (
    c: GraphCall,
    idOf: (reply: HttpReply) => Option.Option<string> = createdIdOf
  ): Effect.Effect<CreateResult> =>
    call(c).pipe(
      Effect.map((r): CreateResult => {
        if (isSuccess(r))
          return Option.match(idOf(r), {
            onNone: () => ({
              _tag: "Unknown",
              why: `${network} accepted the request but its answer could not be read.`
            }),
            onSome: (id) => ({ _tag: "Created", id })
          })
        if (r.status >= 500 && !(metaProblem(r)?.transient ?? false))
          return { _tag: "Unknown", why: `${network} answered HTTP ${r.status}.` }
        return { _tag: "Refused", error: publishErrorOf(network, r) }
      }),
      Effect.catchTags({
        GraphThrottled: (e) => Effect.succeed<CreateResult>({ _tag: "Refused", error: throttledError(e) }),
        NoAnswer: (e) => Effect.succeed<CreateResult>({ _tag: "Unknown", why: e.message })
      })
    )

  /**
   * DELETE /{id} (a post, a comment, a video): `{success: true}`. An object Meta no longer has (404, or
   * code 100 subcode 33, "does not exist") is already removed, so a repeat after a lost answer is harmless.
   */
  const remove = (id: string, token: string, acting: string): Effect.Effect<void, PublishError> =>
    call({ method: "DELETE", path: `/${encodeURIComponent(id)}`, token, acting }).pipe(
      Effect.mapError(asPublishError),
      Effect.flatMap((r) => {
        if (isSuccess(r) || r.status === 404) return Effect.void
        const problem = metaProblem(r)
        return problem?.code === 100 && problem.subcode === 33 ? Effect.void : Effect.fail(publishErrorOf(network, r))
      })
    )

  return { call, expect, create, remove, url, throttledError, asPublishError, network }
}

/** A created thing's id, or the failure the pipeline understands: a refusal, or a defect when the outcome is unknown (it keeps the checkpoint and recovers). */
export const createdId =
  (network: string, what: string) =>
  (result: CreateResult): Effect.Effect<string, PublishError> => {
    switch (result._tag) {
      case "Created":
        return Effect.succeed(result.id)
      case "Refused":
        return Effect.fail(result.error)
      case "Unknown":
        return Effect.fail(
          PublishError.outcomeUnknown({ message: `The outcome of the ${network} ${what} is unknown: ${result.why}` })
        )
    }
  }
