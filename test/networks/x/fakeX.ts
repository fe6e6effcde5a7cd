import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import twitterText from "twitter-text"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local X: the parts of X API v2 and its OAuth 2.0 that Herald uses, as X documents them
 * (docs/networks/x.md). It checks what X checks (PKCE S256, Basic client auth, bearer tokens that
 * expire, rotating refresh tokens, media state, text over 280 weighted characters, duplicates,
 * per-user windows), answers
 * in X's shapes and headers, records every request, and lets a test script failures.
 */

export interface FakeUser {
  readonly id: string
  readonly name: string
  readonly username: string
  readonly profile_image_url: string
}

export interface FakeTweet {
  readonly id: string
  readonly authorId: string
  readonly text: string
  readonly createdAt: number
  readonly replyTo: string | null
  readonly mediaIds: ReadonlyArray<string>
  readonly poll: { readonly options: ReadonlyArray<string>; readonly duration_minutes: number } | null
}

interface FakeMedia {
  readonly id: string
  readonly owner: string
  readonly category: string
  readonly mediaType: string
  readonly totalBytes: number
  readonly segments: Map<number, number>
  finalized: boolean
  pollsLeft: number
  state: "pending" | "in_progress" | "succeeded" | "failed"
}

interface Window {
  count: number
  resetAt: number
}

const WINDOW_MS = 15 * 60_000
const DAY_MS = 24 * 60 * 60_000

const problem = (status: number, title: string, detail: string, type = "about:blank") => ({
  title,
  type,
  status,
  detail
})
const unauthorized = problem(401, "Unauthorized", "Unauthorized")
const invalidRequest = (message: string) => ({
  errors: [{ parameters: {}, message }],
  title: "Invalid Request",
  detail: "One or more parameters to your request was invalid.",
  type: "https://api.twitter.com/2/problems/invalid-request"
})

/** A post's text limit for accounts without a paid plan, in twitter-text's weighted characters. */
export const MAX_WEIGHTED_LENGTH = 280
/** X's refusal of a longer text: a 400 invalid-request problem with this message (docs/networks/x.md). */
export const TOO_LONG =
  "Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text."

const base64url = (bytes: Buffer) => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
const token = (prefix: string) => `${prefix}_${base64url(randomBytes(24))}`

/** How X shows a post's text back: &, < and > escaped, links shortened to t.co, a t.co link appended for media. */
const shownText = (tweet: FakeTweet) => {
  let n = 0
  const text = tweet.text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/https?:\/\/\S+/g, () => `https://t.co/l${++n}${tweet.id.slice(-4)}`)
  return tweet.mediaIds.length > 0 ? `${text} https://t.co/m${tweet.id.slice(-6)}` : text
}

export const startFakeX = async (options: { clientId?: string; clientSecret?: string } = {}) => {
  const clientId = options.clientId ?? "herald-client-id"
  // X's secrets carry - and _: they must reach X unchanged in the Basic header.
  const clientSecret = options.clientSecret ?? "s3cr-et_with-dashes_and_underscores"
  const users = new Map<string, FakeUser>([
    [
      "1001",
      {
        id: "1001",
        name: "Alice Example",
        username: "alice",
        profile_image_url: "https://pbs.twimg.com/profile_images/1/alice_normal.jpg"
      }
    ],
    [
      "1002",
      {
        id: "1002",
        name: "Bob Example",
        username: "bob",
        profile_image_url: "https://pbs.twimg.com/profile_images/2/bob_normal.jpg"
      }
    ]
  ])
  const codes = new Map<string, { redirectUri: string; challenge: string; userId: string; scope: string }>()
  const accessTokens = new Map<string, { userId: string; expiresAt: number }>()
  const refreshTokens = new Map<string, string>()
  const tweets: Array<FakeTweet> = []
  const media = new Map<string, FakeMedia>()
  const windows = new Map<string, Window>()
  const log = requestLog()
  let nextId = 1_860_000_000_000_000_000n

  const state = {
    /** Now, for token expiry and rate-limit resets (epoch ms); the real clock unless a test sets it. */
    clock: null as number | null,
    /** Added to the real clock when `clock` is not set: a test that moves Herald's time ahead moves X's too. */
    offsetMs: 0,
    /** The person who approves on the authorize page. */
    authorizeAs: "1001",
    /** Answers to refresh and code exchanges leave out refresh_token (some networks give it only at first consent). */
    omitRefreshToken: false,
    /** STATUS polls a video or GIF takes: in_progress until the last, which says succeeded. */
    statusPolls: 3,
    /** Processing of the next video or GIF fails. */
    failProcessing: false,
    /** "basic" reads posts (GET /2/tweets); "free" is refused with X's client-forbidden problem. */
    readAccess: "basic" as "basic" | "free",
    /** Per user: posts per 15 minutes, posts per 24 hours, and other calls per 15 minutes. */
    limits: { tweets: 100, tweetsPerDay: 2400, other: 900, deletes: 50 }
  }
  const now = () => state.clock ?? Date.now() + state.offsetMs
  const newId = () => String(++nextId)

  /** Counts a call in the user's window for `name` and returns X's headers for it; null when the window is used up. */
  const count = (key: string, limit: number, windowMs: number) => {
    let w = windows.get(key)
    if (w === undefined || w.resetAt <= now()) windows.set(key, (w = { count: 0, resetAt: now() + windowMs }))
    const allowed = w.count < limit
    if (allowed) w.count++
    return { allowed, limit, remaining: limit - w.count, reset: Math.ceil(w.resetAt / 1000) }
  }

  const send = sendJson

  const bearer = (req: IncomingMessage): string | null => {
    const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1])
    return access !== undefined && access.expiresAt > now() ? access.userId : null
  }

  const everIssued: Array<string> = []
  const issue = (userId: string, scope: string) => {
    const access = token("at")
    everIssued.push(access)
    accessTokens.set(access, { userId, expiresAt: now() + 7200 * 1000 })
    const answer: Record<string, unknown> = { token_type: "bearer", expires_in: 7200, access_token: access, scope }
    if (!state.omitRefreshToken && scope.split(" ").includes("offline.access")) {
      const refresh = token("rt")
      refreshTokens.set(refresh, userId)
      everIssued.push(refresh)
      answer.refresh_token = refresh
    }
    return answer
  }

  const readBody = async (req: IncomingMessage): Promise<{ raw: Buffer; parsed: unknown; form: FormData | null }> => {
    const { raw, type, parsed } = await readRequestBody(req, (raw) => (raw.length > 0 ? raw.toString() : undefined))
    if (!type.startsWith("multipart/form-data")) return { raw, parsed, form: null }
    const form = await new Response(raw, { headers: { "content-type": type } }).formData()
    const fields: Record<string, unknown> = {}
    for (const [name, value] of form.entries())
      fields[name] = typeof value === "string" ? value : { bytes: value.size, type: value.type }
    return { raw, parsed: fields, form }
  }

  const rateHeaders = (c: { limit: number; remaining: number; reset: number }) => ({
    "x-rate-limit-limit": String(c.limit),
    "x-rate-limit-remaining": String(Math.max(0, c.remaining)),
    "x-rate-limit-reset": String(c.reset)
  })
  const tooMany = problem(429, "Too Many Requests", "Too Many Requests", "about:blank")

  /** A call by `userId` against endpoint window `name`: its headers, or a 429 already sent. */
  const metered = (res: ServerResponse, userId: string, name: string) => {
    const c = count(`${userId}:${name}`, state.limits.other, WINDOW_MS)
    if (!c.allowed) {
      send(res, 429, tooMany, rateHeaders(c))
      return null
    }
    return rateHeaders(c)
  }

  const createTweet = (res: ServerResponse, userId: string, body: any, dropAnswer: boolean, req: IncomingMessage) => {
    const window = count(`${userId}:tweets`, state.limits.tweets, WINDOW_MS)
    const day = count(`${userId}:tweets24h`, state.limits.tweetsPerDay, DAY_MS)
    const headers = {
      ...rateHeaders(window),
      "x-user-limit-24hour-limit": String(day.limit),
      "x-user-limit-24hour-remaining": String(Math.max(0, day.remaining)),
      "x-user-limit-24hour-reset": String(day.reset),
      "x-app-limit-24hour-limit": "10000",
      "x-app-limit-24hour-remaining": "9000",
      "x-app-limit-24hour-reset": String(Math.ceil((now() + DAY_MS) / 1000))
    }
    if (!window.allowed || !day.allowed) return send(res, 429, tooMany, headers)
    const text = typeof body?.text === "string" ? body.text : ""
    if (text === "" && body?.media === undefined)
      return send(res, 400, invalidRequest("You must provide text or media."), headers)
    // X weighs the text with twitter-text (a link 23, CJK and emoji 2) and refuses more than 280 (docs/networks/x.md).
    if (twitterText.parseTweet(text).weightedLength > MAX_WEIGHTED_LENGTH)
      return send(res, 400, invalidRequest(TOO_LONG), headers)
    const replyTo: string | null = body?.reply?.in_reply_to_tweet_id ?? null
    if (replyTo !== null && !tweets.some((t) => t.id === replyTo))
      return send(
        res,
        403,
        problem(403, "Forbidden", "You attempted to reply to a Tweet that is deleted or not visible to you."),
        headers
      )
    const mediaIds: Array<string> = body?.media?.media_ids ?? []
    if (mediaIds.length > 4)
      return send(res, 400, invalidRequest("Your media IDs are invalid. The maximum of 4 items was exceeded."), headers)
    if (
      mediaIds.some((id) => {
        const m = media.get(id)
        return m === undefined || m.owner !== userId || m.state !== "succeeded"
      })
    )
      return send(res, 400, invalidRequest("Your media IDs are invalid."), headers)
    const poll = body?.poll ?? null
    if (poll !== null) {
      if (mediaIds.length > 0) return send(res, 400, invalidRequest("A poll cannot be combined with media."), headers)
      const ok =
        Array.isArray(poll.options) &&
        poll.options.length >= 2 &&
        poll.options.length <= 4 &&
        poll.options.every((o: unknown) => typeof o === "string" && o.length <= 25) &&
        Number.isInteger(poll.duration_minutes) &&
        poll.duration_minutes >= 5 &&
        poll.duration_minutes <= 10_080
      if (!ok) return send(res, 400, invalidRequest("The poll is invalid."), headers)
    }
    if (tweets.some((t) => t.authorId === userId && t.text === text))
      return send(
        res,
        403,
        problem(403, "Forbidden", "You are not allowed to create a Tweet with duplicate content."),
        headers
      )
    const tweet: FakeTweet = { id: newId(), authorId: userId, text, createdAt: now(), replyTo, mediaIds, poll }
    tweets.push(tweet)
    if (dropAnswer) return req.socket.destroy()
    send(res, 201, { data: { id: tweet.id, text: shownText(tweet), edit_history_tweet_ids: [tweet.id] } }, headers)
  }

  const startUpload = (userId: string, mediaType: string, totalBytes: number, category: string): FakeMedia => {
    const m: FakeMedia = {
      id: newId(),
      owner: userId,
      category,
      mediaType,
      totalBytes,
      segments: new Map(),
      finalized: false,
      pollsLeft: state.statusPolls,
      state: "pending"
    }
    media.set(m.id, m)
    return m
  }
  const uploaded = (m: FakeMedia) => ({ id: m.id, media_key: `7_${m.id}`, expires_after_secs: 86_400 })
  const append = (
    res: ServerResponse,
    userId: string,
    m: FakeMedia | undefined,
    index: string | null,
    file: unknown,
    headers: Record<string, string>
  ) => {
    if (m === undefined || m.owner !== userId || m.finalized)
      return send(res, 400, invalidRequest("The media_id is invalid."), headers)
    if (!(file instanceof Blob) || index === null || !/^\d+$/.test(index) || Number(index) > 999)
      return send(res, 400, invalidRequest("segment_index and media are required."), headers)
    if (file.size > 5 * 1024 * 1024) return send(res, 400, invalidRequest("The segment is larger than 5 MB."), headers)
    m.segments.set(Number(index), file.size)
    send(res, 200, { data: { expires_at: Math.ceil((now() + DAY_MS) / 1000) } }, headers)
  }
  const finalize = (res: ServerResponse, userId: string, m: FakeMedia | undefined, headers: Record<string, string>) => {
    if (m === undefined || m.owner !== userId)
      return send(res, 400, invalidRequest("The media_id is invalid."), headers)
    const received = [...m.segments.values()].reduce((a, b) => a + b, 0)
    const contiguous = [...m.segments.keys()].sort((a, b) => a - b).every((k, i) => k === i)
    if (received !== m.totalBytes || !contiguous)
      return send(
        res,
        400,
        invalidRequest(`File size mismatch: ${received} bytes received, ${m.totalBytes} declared.`),
        headers
      )
    m.finalized = true
    m.state = "pending"
    send(
      res,
      200,
      { data: { ...uploaded(m), size: m.totalBytes, processing_info: { state: "pending", check_after_secs: 1 } } },
      headers
    )
  }
  const status = (res: ServerResponse, userId: string, m: FakeMedia | undefined, headers: Record<string, string>) => {
    if (m === undefined || m.owner !== userId || !m.finalized)
      return send(res, 400, invalidRequest("The media_id is invalid."), headers)
    if (m.state === "pending" || m.state === "in_progress") {
      m.pollsLeft--
      if (state.failProcessing) {
        m.state = "failed"
        state.failProcessing = false
      } else m.state = m.pollsLeft <= 0 ? "succeeded" : "in_progress"
    }
    const info =
      m.state === "failed"
        ? {
            state: "failed",
            progress_percent: 40,
            error: { code: 1, name: "InvalidMedia", message: "Invalid or Unsupported media, Reason: UnsupportedMedia." }
          }
        : m.state === "succeeded"
          ? { state: "succeeded", progress_percent: 100 }
          : { state: "in_progress", check_after_secs: 5, progress_percent: 50 }
    send(res, 200, { data: { id: m.id, media_key: `7_${m.id}`, processing_info: info } }, headers)
  }

  const timeline = (res: ServerResponse, authorId: string, query: URLSearchParams, headers: Record<string, string>) => {
    const max = Number(query.get("max_results") ?? "10")
    if (!Number.isInteger(max) || max < 5 || max > 100)
      return send(res, 400, invalidRequest("max_results must be between 5 and 100."), headers)
    const start = query.get("start_time")
    if (start !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(start))
      return send(res, 400, invalidRequest("start_time must be YYYY-MM-DDTHH:mm:ssZ."), headers)
    const since = start === null ? 0 : Date.parse(start)
    const all = tweets
      .filter((t) => t.authorId === authorId && t.createdAt >= since)
      .sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
    const offset = Number(query.get("pagination_token") ?? "0")
    const page = all.slice(offset, offset + max)
    const data = page.map((t) => ({
      id: t.id,
      text: shownText(t),
      created_at: new Date(t.createdAt).toISOString(),
      edit_history_tweet_ids: [t.id],
      ...(t.replyTo !== null ? { referenced_tweets: [{ type: "replied_to", id: t.replyTo }] } : {})
    }))
    const meta = {
      result_count: data.length,
      ...(offset + max < all.length ? { next_token: String(offset + max) } : {})
    }
    send(res, 200, data.length > 0 ? { data, meta } : { meta }, headers)
  }

  /** Posts' figures as X counts them (tests set them); X answers zeros for a post nobody saw. */
  const figures = new Map<string, Record<string, number>>()
  const PUBLIC = ["retweet_count", "reply_count", "like_count", "quote_count", "bookmark_count", "impression_count"]
  const NON_PUBLIC = ["impression_count", "url_link_clicks", "user_profile_clicks"]
  /** GET /2/tweets?ids=: up to 100 ids; non-public figures only for the caller's own posts of the last 30 days. */
  const lookup = (res: ServerResponse, userId: string, query: URLSearchParams, headers: Record<string, string>) => {
    if (state.readAccess === "free")
      return send(res, 403, {
        client_id: clientId,
        detail:
          "When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project. You can create a project via the developer portal.",
        registration_url: "https://developer.twitter.com/en/docs/projects/overview",
        title: "Client Forbidden",
        required_enrollment: "Appropriate Level of API Access",
        reason: "client-not-enrolled",
        type: "https://api.twitter.com/2/problems/client-forbidden"
      })
    const ids = (query.get("ids") ?? "").split(",").filter((id) => id !== "")
    if (ids.length === 0 || ids.length > 100 || ids.some((id) => !/^\d+$/.test(id)))
      return send(
        res,
        400,
        invalidRequest("The `ids` query parameter value must be 1 to 100 comma-separated post ids."),
        headers
      )
    const fields = (query.get("tweet.fields") ?? "").split(",")
    const data: Array<Record<string, unknown>> = []
    const errors: Array<Record<string, unknown>> = []
    for (const id of ids) {
      const tweet = tweets.find((t) => t.id === id)
      if (tweet === undefined) {
        errors.push({
          value: id,
          detail: `Could not find tweet with ids: [${id}].`,
          title: "Not Found Error",
          resource_type: "tweet",
          parameter: "ids",
          resource_id: id,
          type: "https://api.twitter.com/2/problems/resource-not-found"
        })
        continue
      }
      const counts = figures.get(id) ?? {}
      const of = (names: ReadonlyArray<string>) => Object.fromEntries(names.map((n) => [n, counts[n] ?? 0]))
      if (
        fields.includes("non_public_metrics") &&
        (tweet.authorId !== userId || now() - tweet.createdAt > 30 * DAY_MS)
      ) {
        errors.push({
          value: id,
          detail: "Sorry, you are not authorized to access non_public_metrics on this Tweet.",
          title: "Field Authorization Error",
          resource_type: "tweet",
          field: "non_public_metrics",
          parameter: "non_public_metrics",
          resource_id: id,
          section: "data",
          type: "https://api.twitter.com/2/problems/not-authorized-for-field"
        })
        continue
      }
      data.push({
        id,
        text: shownText(tweet),
        edit_history_tweet_ids: [id],
        ...(fields.includes("public_metrics") ? { public_metrics: of(PUBLIC) } : {}),
        ...(fields.includes("non_public_metrics") ? { non_public_metrics: of(NON_PUBLIC) } : {})
      })
    }
    send(res, 200, { ...(data.length > 0 ? { data } : {}), ...(errors.length > 0 ? { errors } : {}) }, headers)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { parsed, form } = await readBody(req)
    const query = url.searchParams
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body, { ...reply.headers })
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (route === "GET /i/oauth2/authorize") {
      const redirectUri = query.get("redirect_uri") ?? ""
      if (
        query.get("client_id") !== clientId ||
        query.get("response_type") !== "code" ||
        query.get("code_challenge_method") !== "S256" ||
        !query.get("code_challenge")
      )
        return send(res, 400, {
          error: "invalid_request",
          error_description: "Something went wrong. You weren't able to give access to the App."
        })
      const code = token("code")
      codes.set(code, {
        redirectUri,
        challenge: query.get("code_challenge")!,
        userId: state.authorizeAs,
        scope: query.get("scope") ?? ""
      })
      const back = new URL(redirectUri)
      back.searchParams.set("state", query.get("state") ?? "")
      back.searchParams.set("code", code)
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /2/oauth2/token") {
      if (req.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`)
        return send(res, 401, { error: "unauthorized_client", error_description: "Missing valid authorization header" })
      if (body?.grant_type === "authorization_code") {
        const grant = codes.get(body.code)
        codes.delete(body.code)
        const proof =
          typeof body.code_verifier === "string"
            ? base64url(createHash("sha256").update(body.code_verifier).digest())
            : null
        if (grant === undefined || grant.redirectUri !== body.redirect_uri || proof !== grant.challenge)
          return send(res, 400, {
            error: "invalid_request",
            error_description: "Value passed for the authorization code was invalid."
          })
        return send(res, 200, issue(grant.userId, grant.scope))
      }
      if (body?.grant_type === "refresh_token") {
        const userId = refreshTokens.get(body.refresh_token)
        // Rotation: a refresh token works once.
        refreshTokens.delete(body.refresh_token)
        if (userId === undefined)
          return send(res, 400, {
            error: "invalid_request",
            error_description: "Value passed for the token was invalid."
          })
        return send(res, 200, issue(userId, "tweet.read tweet.write users.read offline.access media.write"))
      }
      return send(res, 400, { error: "unsupported_grant_type", error_description: "grant_type is not supported." })
    }

    const userId = bearer(req)
    if (userId === null) return send(res, 401, unauthorized)

    if (route === "POST /2/tweets") return createTweet(res, userId, body, reply?.dropAnswer === true, req)
    // DELETE /2/tweets/:id (manage-tweets): 50 requests per 15 minutes per user; {data: {deleted: true}}.
    const deleting = /^\/2\/tweets\/(\d+)$/.exec(url.pathname)
    if (req.method === "DELETE" && deleting !== null) {
      const c = count(`${userId}:deletes`, state.limits.deletes, WINDOW_MS)
      if (!c.allowed) return send(res, 429, tooMany, rateHeaders(c))
      const at = tweets.findIndex((t) => t.id === deleting[1])
      if (at === -1)
        return send(
          res,
          404,
          problem(
            404,
            "Not Found Error",
            `Could not find tweet with id: [${deleting[1]}].`,
            "https://api.twitter.com/2/problems/resource-not-found"
          ),
          rateHeaders(c)
        )
      if (tweets[at]!.authorId !== userId)
        return send(res, 403, problem(403, "Forbidden", "You are not allowed to delete this Tweet."), rateHeaders(c))
      tweets.splice(at, 1)
      if (reply?.dropAnswer === true) return req.socket.destroy()
      return send(res, 200, { data: { deleted: true } }, rateHeaders(c))
    }
    if (route === "GET /2/users/me") {
      const headers = metered(res, userId, "me")
      if (headers === null) return
      const user = users.get(userId)!
      const fields = (query.get("user.fields") ?? "").split(",")
      return send(
        res,
        200,
        {
          data: {
            id: user.id,
            name: user.name,
            username: user.username,
            ...(fields.includes("profile_image_url") ? { profile_image_url: user.profile_image_url } : {})
          }
        },
        headers
      )
    }
    if (route === "GET /2/tweets") {
      const headers = metered(res, userId, "lookup")
      if (headers === null) return
      return lookup(res, userId, query, headers)
    }
    const userTweets = /^\/2\/users\/(\d+)\/tweets$/.exec(url.pathname)
    if (req.method === "GET" && userTweets !== null) {
      const headers = metered(res, userId, "timeline")
      if (headers === null) return
      return timeline(res, userTweets[1], query, headers)
    }
    if (url.pathname.startsWith("/2/media/upload")) {
      const headers = metered(res, userId, "media")
      if (headers === null) return
      const byPath = /^\/2\/media\/upload\/(\d+)\/(append|finalize)$/.exec(url.pathname)
      if (req.method === "POST" && url.pathname === "/2/media/upload/initialize") {
        if (typeof body?.total_bytes !== "number" || typeof body?.media_type !== "string")
          return send(res, 400, invalidRequest("total_bytes and media_type are required."), headers)
        return send(
          res,
          200,
          {
            data: uploaded(startUpload(userId, body.media_type, body.total_bytes, body.media_category ?? "tweet_video"))
          },
          headers
        )
      }
      if (req.method === "POST" && byPath !== null)
        return byPath[2] === "append"
          ? append(
              res,
              userId,
              media.get(byPath[1]),
              form?.get("segment_index") as string | null,
              form?.get("media"),
              headers
            )
          : finalize(res, userId, media.get(byPath[1]), headers)
      if (req.method === "GET" && url.pathname === "/2/media/upload" && query.get("command") === "STATUS")
        return status(res, userId, media.get(query.get("media_id") ?? ""), headers)
      if (req.method === "POST" && url.pathname === "/2/media/upload") {
        // The older form, still in X's quickstart: command=INIT|APPEND|FINALIZE on the one path.
        const field = (name: string): string => String(body?.[name] ?? query.get(name) ?? "")
        const command = field("command")
        if (command === "INIT")
          return send(
            res,
            200,
            {
              data: uploaded(
                startUpload(
                  userId,
                  field("media_type"),
                  Number(field("total_bytes")),
                  field("media_category") || "tweet_video"
                )
              )
            },
            headers
          )
        if (command === "APPEND")
          return append(res, userId, media.get(field("media_id")), field("segment_index"), form?.get("media"), headers)
        if (command === "FINALIZE") return finalize(res, userId, media.get(field("media_id")), headers)
        const file = form?.get("media")
        if (!(file instanceof Blob) || form?.get("media_category") !== "tweet_image")
          return send(res, 400, invalidRequest("media and media_category=tweet_image are required."), headers)
        const m = startUpload(userId, file.type, file.size, "tweet_image")
        m.segments.set(0, file.size)
        m.finalized = true
        m.state = "succeeded"
        return send(
          res,
          200,
          { data: { ...uploaded(m), size: file.size, image: { image_type: file.type, w: 1, h: 1 } } },
          headers
        )
      }
    }
    send(res, 404, problem(404, "Not Found Error", `No route for ${route}.`))
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    send(res, 500, problem(500, "Internal Error", String(e)))
  )

  return {
    origin,
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/i/oauth2/authorize`,
    tokenUrl: `${origin}/2/oauth2/token`,
    state,
    users,
    tweets,
    /** Sets a post's figures under X's names (public_metrics and non_public_metrics alike). */
    setFigures: (id: string, counts: Record<string, number>) => void figures.set(id, counts),
    /** Uploads as X holds them, by media id. */
    media: media as ReadonlyMap<
      string,
      { readonly totalBytes: number; readonly category: string; readonly state: string }
    >,
    requests: log.requests,
    /** The next request to `method path` gets this answer instead (or has its answer lost). */
    script: log.script,
    /** Requests whose path matches, in order. */
    calls: log.calls,
    /** Every token of the user stops working (the person revoked the app). */
    revoke: (userId: string) => {
      for (const [t, a] of accessTokens) if (a.userId === userId) accessTokens.delete(t)
      for (const [t, u] of refreshTokens) if (u === userId) refreshTokens.delete(t)
    },
    /** Every token X ever issued (rotated ones too), to look for them where they must not be. */
    issuedTokens: () => [...everIssued],
    /** The access token of the user stops working now, as after its 2 hours (the refresh token still works). */
    expireAccess: (userId: string) => {
      for (const [t, a] of accessTokens) if (a.userId === userId) accessTokens.delete(t)
    },
    close
  }
}

export type FakeX = Awaited<ReturnType<typeof startFakeX>>
