import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"
import { aboutOf, type FakeSubreddit, fakeSubreddits, fakeUsers, t5Of } from "./fakeSubreddits.ts"
import { apiError, type FakeComment, type FakePost, listing, t1, t3, unauthorized } from "./fakeThings.ts"

export type { FakeComment, FakePost } from "./fakeThings.ts"

/**
 * A local Reddit, from reddit.com/dev/api and its OAuth2 wiki: the authorize page (duration=permanent
 * gives a refresh token), the token endpoint (HTTP Basic client auth; a bad code is a 200 with
 * {"error": "invalid_grant"}), and the OAuth API Herald uses: /api/v1/me, subreddits' about, post
 * requirements and link flairs, /api/submit and /api/comment (api_type=json: refusals inside a 200),
 * /api/del, /api/info, the account's submitted and comments listings, and image uploads (a media
 * asset lease, then a multipart POST to the lease's protocol-relative action). Every API answer
 * carries X-Ratelimit-Used/Remaining/Reset; a spent window is a 429. A call without the configured
 * User-Agent is refused (Reddit throttles generic agents). Records every request; tests script faults.
 */

export const startFakeReddit = async (options: { userAgent?: string } = {}) => {
  const clientId = "hR3dd1tCl1ent"
  const clientSecret = "r3ddit-s3cret_value-0123"
  const userAgent = options.userAgent ?? "server:herald.test:1.0 (by /u/herald_ops)"
  const users = fakeUsers()
  const subreddits = fakeSubreddits()
  const codes = new Map<string, { redirectUri: string; user: string; scope: string; permanent: boolean }>()
  const accessTokens = new Map<string, { user: string; expiresAt: number }>()
  const refreshTokens = new Map<string, string>()
  const posts: Array<FakePost> = []
  const comments: Array<FakeComment> = []
  const assets = new Map<string, { key: string; sha256: string | null; user: string }>()
  const everIssued: Array<string> = []
  const log = requestLog()
  let counter = 1000

  const state = {
    clock: null as number | null,
    authorizeAs: "alice",
    /** The person presses "Decline" on Reddit's page. */
    decline: false,
    /** API calls in a 10-minute window (Reddit: 100 a minute, averaged). */
    windowCalls: 1000,
    /** Submits a user may make before Reddit's RATELIMIT ("you are doing that too much"). */
    submitsBeforeRatelimit: 100,
    /** Subreddits a page of /subreddits/mine/* (Reddit: limit, at most 100). */
    minePageSize: 100
  }
  const now = () => state.clock ?? Date.now()
  const window = new Map<string, { used: number; endsAt: number }>()
  const submits = new Map<string, number>()

  const issue = (user: string, scope: string, withRefresh: boolean, refresh?: string) => {
    const access = `${counter++}-${randomBytes(18).toString("base64url")}`
    everIssued.push(access)
    accessTokens.set(access, { user, expiresAt: now() + 86_400_000 })
    const refreshToken = refresh ?? `${counter++}-${randomBytes(18).toString("base64url")}`
    if (withRefresh && refresh === undefined) {
      everIssued.push(refreshToken)
      refreshTokens.set(refreshToken, user)
    }
    return {
      access_token: access,
      token_type: "bearer",
      expires_in: 86_400,
      scope,
      ...(withRefresh ? { refresh_token: refreshToken } : {})
    }
  }
  const userOf = (req: IncomingMessage) => {
    const found = /^bearer (.+)$/i.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1]!)
    return access !== undefined && access.expiresAt > now() ? users.get(access.user)! : null
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { raw, type, parsed } = await readRequestBody(req)
    let body = parsed as Record<string, string> | undefined
    let file: Buffer | null = null
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(raw, { headers: { "content-type": type } }).formData()
      body = {}
      for (const [name, value] of form.entries())
        if (typeof value === "string") body[name] = value
        else file = Buffer.from(await value.arrayBuffer())
    }
    const reply = log.record(req, url, body)
    const send = (status: number, answer?: unknown, headers: Record<string, string> = {}) =>
      reply?.dropAnswer === true ? void req.socket.destroy() : sendJson(res, status, answer, headers)
    const route = `${req.method} ${url.pathname}`
    const query = url.searchParams

    if (route === "GET /api/v1/authorize") {
      if (query.get("client_id") !== clientId || query.get("response_type") !== "code")
        return send(400, { message: "Bad Request", error: 400 })
      const back = new URL(query.get("redirect_uri") ?? "")
      back.searchParams.set("state", query.get("state") ?? "")
      if (state.decline) back.searchParams.set("error", "access_denied")
      else {
        const code = randomBytes(16).toString("base64url")
        codes.set(code, {
          redirectUri: query.get("redirect_uri") ?? "",
          user: state.authorizeAs,
          scope: (query.get("scope") ?? "").split(" ").join(" "),
          permanent: query.get("duration") === "permanent"
        })
        back.searchParams.set("code", code)
      }
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    // Reddit's upload store is S3: no User-Agent rule there.
    if (route === "POST /s3") {
      const asset = [...assets.values()].find((a) => a.key === body?.key)
      if (asset === undefined || file === null || body?.["x-amz-signature"] === undefined) return send(403)
      asset.sha256 = createHash("sha256").update(file).digest("hex")
      const location = `https://reddit-uploaded-media.s3-accelerate.amazonaws.com/${encodeURIComponent(asset.key)}`
      res.writeHead(201, { "content-type": "application/xml" })
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>${location}</Location><Key>${asset.key}</Key></PostResponse>`
      )
    }

    if (req.headers["user-agent"] !== userAgent)
      return send(429, { message: "Too Many Requests", error: 429 }, { "retry-after": "600" })
    if (reply !== null && reply.dropAnswer !== true) return send(reply.status, reply.body, { ...reply.headers })

    if (route === "POST /api/v1/access_token") {
      if (req.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`)
        return send(401, unauthorized)
      if (body?.grant_type === "authorization_code") {
        const grant = codes.get(body.code ?? "")
        codes.delete(body.code ?? "")
        if (grant === undefined || grant.redirectUri !== body.redirect_uri) return send(200, { error: "invalid_grant" })
        return send(200, issue(grant.user, grant.scope, grant.permanent))
      }
      if (body?.grant_type === "refresh_token") {
        const user = refreshTokens.get(body.refresh_token ?? "")
        if (user === undefined) return send(400, { error: "invalid_grant" })
        return send(200, issue(user, "identity submit read flair mysubreddits edit", true, body.refresh_token))
      }
      return send(400, { error: "unsupported_grant_type" })
    }
    const me = userOf(req)
    if (me === null)
      return send(401, unauthorized, { "www-authenticate": 'Bearer realm="reddit", error="invalid_token"' })
    let w = window.get(me.name)
    if (w === undefined || w.endsAt <= now()) window.set(me.name, (w = { used: 0, endsAt: now() + 600_000 }))
    const limits = () => ({
      "x-ratelimit-used": String(w!.used),
      "x-ratelimit-remaining": String(Math.max(0, state.windowCalls - w!.used)),
      "x-ratelimit-reset": String(Math.ceil((w!.endsAt - now()) / 1000))
    })
    if (w.used >= state.windowCalls) return send(429, { message: "Too Many Requests", error: 429 }, limits())
    w.used++
    const ok = (answer: unknown) => send(200, answer, limits())

    if (route === "GET /api/v1/me")
      return ok({
        id: me.id,
        name: me.name,
        icon_img: `https://styles.redditmedia.com/t5_x/styles/profileIcon_${me.id}.png?width=256&amp;s=abc`,
        subreddit: { title: me.title, display_name_prefixed: `u/${me.name}` }
      })
    const about = /^\/r\/([^/]+)\/about$/.exec(url.pathname)
    if (req.method === "GET" && about !== null) {
      const s = subreddits.get(about[1]!.toLowerCase())
      return s === undefined ? send(404, { message: "Not Found", error: 404 }, limits()) : ok(aboutOf(s, me.name))
    }
    const requirements = /^\/api\/v1\/([^/]+)\/post_requirements$/.exec(url.pathname)
    if (req.method === "GET" && requirements !== null) {
      const s = subreddits.get(requirements[1]!.toLowerCase())
      return s === undefined ? send(404, { message: "Not Found", error: 404 }, limits()) : ok(s.requirements)
    }
    const flairs = /^\/r\/([^/]+)\/api\/link_flair_v2$/.exec(url.pathname)
    if (req.method === "GET" && flairs !== null) {
      const s = subreddits.get(flairs[1]!.toLowerCase())
      if (s === undefined) return send(404, { message: "Not Found", error: 404 }, limits())
      if (s.flairs === null) return send(403, { message: "Forbidden", error: 403 }, limits())
      return ok(s.flairs.map((f) => ({ id: f.id, text: f.text, type: "text", text_editable: false })))
    }
    if (route === "POST /api/media/asset.json") {
      const id = `a${counter++}`
      const key = `rte_images/${id}/${body?.filepath ?? "file"}`
      assets.set(id, { key, sha256: null, user: me.name })
      return ok({
        args: {
          action: `//${url.host === "fake" ? req.headers.host : url.host}/s3`,
          fields: [
            { name: "acl", value: "private" },
            { name: "key", value: key },
            { name: "Content-Type", value: body?.mimetype ?? "" },
            { name: "x-amz-algorithm", value: "AWS4-HMAC-SHA256" },
            { name: "x-amz-signature", value: randomBytes(8).toString("hex") }
          ]
        },
        asset: {
          asset_id: id,
          processing_state: "incomplete",
          payload: { filepath: body?.filepath },
          websocket_url: `wss://ws.redditmedia.com/rte_images/${id}`
        }
      })
    }
    if (route === "POST /api/submit") {
      if (body?.api_type !== "json") return send(400, { message: "Bad Request", error: 400 })
      const s = subreddits.get((body.sr ?? "").toLowerCase())
      if (s === undefined) return ok(apiError("SUBREDDIT_NOEXIST", "that subreddit doesn't exist", "sr"))
      if (s.type !== "public" && !s.contributors.includes(me.name))
        return ok(apiError("SUBREDDIT_NOTALLOWED", "you aren't allowed to post there.", "sr"))
      if (body.kind === "self" && s.submissionType === "link")
        return ok(apiError("NO_SELFS", "that subreddit doesn't allow text posts", "sr"))
      if (body.kind !== "self" && s.submissionType === "self")
        return ok(apiError("NO_LINKS", "that subreddit only allows text posts", "sr"))
      if (s.requirements.is_flair_required === true && !s.flairs?.some((f) => f.id === body.flair_id))
        return ok(apiError("SUBMIT_VALIDATION_FLAIR_REQUIRED", "Your post must contain post flair.", "flair"))
      if (!body.title || body.title.length > 300)
        return ok(apiError("TOO_LONG", "this is too long (max: 300)", "title"))
      const made = (submits.get(me.name) ?? 0) + 1
      if (made > state.submitsBeforeRatelimit)
        return ok(apiError("RATELIMIT", "you are doing that too much. try again in 5 minutes.", "ratelimit"))
      submits.set(me.name, made)
      const post: FakePost = {
        id: (counter++).toString(36),
        author: me.name,
        subreddit: s.name,
        kind: body.kind ?? "",
        title: body.title,
        text: body.kind === "self" ? (body.text ?? "") : null,
        url: body.kind === "self" ? null : (body.url ?? null),
        flairId: body.flair_id ?? null,
        createdUtc: Math.floor(now() / 1000),
        deleted: false,
        score: 1,
        numComments: 0,
        upvoteRatio: 1
      }
      posts.push(post)
      // An image post is named only over its websocket.
      if (body.kind === "image")
        return ok({
          json: {
            errors: [],
            data: {
              user_submitted_page: `https://www.reddit.com/user/${me.name}/submitted/`,
              websocket_url: `wss://ws.redditmedia.com/${post.id}`
            }
          }
        })
      const view = t3(post).data
      return ok({
        json: {
          errors: [],
          data: { url: `https://www.reddit.com${view.permalink}`, drafts_count: 0, id: post.id, name: view.name }
        }
      })
    }
    if (route === "POST /api/comment") {
      const parent = body?.thing_id ?? ""
      const post = posts.find((p) => `t3_${p.id}` === parent)
      if (post === undefined || post.deleted)
        return ok(apiError("DELETED_LINK", "the link you are commenting on has been deleted", "parent"))
      const c: FakeComment = {
        id: (counter++).toString(36),
        author: me.name,
        linkId: parent,
        parentId: parent,
        body: body?.text ?? "",
        createdUtc: Math.floor(now() / 1000),
        deleted: false
      }
      comments.push(c)
      post.numComments++
      return ok({ json: { errors: [], data: { things: [t1(c)] } } })
    }
    if (route === "POST /api/del") {
      const id = body?.id ?? ""
      for (const p of posts) if (`t3_${p.id}` === id && p.author === me.name) p.deleted = true
      for (const c of comments) if (`t1_${c.id}` === id && c.author === me.name) c.deleted = true
      return ok({})
    }
    const mine = /^\/subreddits\/mine\/(subscriber|contributor|moderator)$/.exec(url.pathname)
    if (req.method === "GET" && mine !== null) {
      const of = (s: FakeSubreddit) =>
        mine[1] === "subscriber" ? s.subscribers : mine[1] === "contributor" ? s.contributors : s.moderators
      const found = [...subreddits.values()].filter((s) => of(s).includes(me.name))
      const limit = Math.min(Number(query.get("limit") ?? "25"), state.minePageSize)
      const start = Number(query.get("after")?.replace(/^t5_page/, "") ?? "0")
      const page = found.slice(start, start + limit)
      return ok({
        kind: "Listing",
        data: { after: start + limit < found.length ? `t5_page${start + limit}` : null, children: page.map(t5Of) }
      })
    }
    if (route === "GET /api/info") {
      const ids = (query.get("id") ?? "").split(",")
      return ok(listing(posts.filter((p) => ids.includes(`t3_${p.id}`)).map(t3)))
    }
    const own = /^\/user\/([^/]+)\/(submitted|comments)$/.exec(url.pathname)
    if (req.method === "GET" && own !== null) {
      const limit = Number(query.get("limit") ?? "25")
      if (own[2] === "submitted")
        return ok(
          listing(
            posts
              .filter((p) => p.author === own[1] && !p.deleted)
              .reverse()
              .slice(0, limit)
              .map(t3)
          )
        )
      return ok(
        listing(
          comments
            .filter((c) => c.author === own[1] && !c.deleted)
            .reverse()
            .slice(0, limit)
            .map(t1)
        )
      )
    }
    send(404, { message: "Not Found", error: 404 })
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    sendJson(res, 500, { message: String(e), error: 500 })
  )

  return {
    origin,
    clientId,
    clientSecret,
    userAgent,
    authorizeUrl: `${origin}/api/v1/authorize`,
    tokenUrl: `${origin}/api/v1/access_token`,
    state,
    users,
    subreddits,
    posts,
    comments,
    assets,
    requests: log.requests,
    script: log.script,
    calls: log.calls,
    /** The person removed Herald's app on reddit.com/prefs/apps: every token of theirs ends. */
    revoke: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
      for (const [t, u] of refreshTokens) if (u === user) refreshTokens.delete(t)
    },
    expireAccess: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
    },
    issuedTokens: () => [...everIssued],
    close
  }
}

export type FakeReddit = Awaited<ReturnType<typeof startFakeReddit>>
