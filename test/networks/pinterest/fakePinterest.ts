import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local Pinterest: its OAuth 2.0 (Basic client authentication, continuous refresh tokens that
 * rotate) and the parts of API v5 Herald uses, as Pinterest's OpenAPI describes them
 * (docs/networks/pinterest.md): user_account, boards with bookmark paging, pins with
 * image_base64, multiple_image_base64 (2-5) and video_id media sources (a cover required), a board's
 * pins, and video uploads (register, a multipart POST to the upload URL with every upload parameter,
 * then registered, processing, succeeded). Errors in Pinterest's shape ({code, message}); records
 * every request and lets a test script failures.
 */

export interface FakePin {
  readonly id: string
  readonly boardId: string
  readonly user: string
  readonly title: string | null
  readonly description: string | null
  readonly link: string | null
  readonly createdAt: number
  readonly source: string
  /** SHA-256 of each image, or of the video and its cover. */
  readonly media: ReadonlyArray<{ readonly type: string; readonly sha256: string }>
  readonly cover: string | null
}

interface FakeMedia {
  readonly id: string
  readonly user: string
  readonly parameters: Record<string, string>
  status: "registered" | "processing" | "succeeded" | "failed"
  pollsLeft: number
  sha256: string | null
}

const problem = (code: number, message: string) => ({ code, message })
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

export const startFakePinterest = async (options: { clientId?: string; clientSecret?: string } = {}) => {
  const clientId = options.clientId ?? "1509999"
  const clientSecret = options.clientSecret ?? "pinterest-app-secret-0123"
  const users = new Map<
    string,
    {
      id: string
      username: string
      businessName: string | null
      boards: Array<{ id: string; name: string; description: string; privacy: string }>
    }
  >([
    [
      "p-alice",
      {
        id: "549755813999",
        username: "alicepins",
        businessName: "Alice's Kitchen",
        boards: [
          { id: "549755885175", name: "Recipes", description: "Things to cook", privacy: "PUBLIC" },
          { id: "549755885176", name: "Kitchen ideas", description: "", privacy: "PUBLIC" },
          { id: "549755885177", name: "Drafts", description: "Not yet", privacy: "SECRET" }
        ]
      }
    ],
    ["p-empty", { id: "549755814000", username: "noboards", businessName: null, boards: [] }]
  ])
  const codes = new Map<string, { redirectUri: string; user: string; scope: string }>()
  const accessTokens = new Map<string, { user: string; expiresAt: number }>()
  const refreshTokens = new Map<string, { user: string; expiresAt: number }>()
  const pins: Array<FakePin> = []
  const media = new Map<string, FakeMedia>()
  const log = requestLog()
  const everIssued: Array<string> = []
  let pinCounter = 1_083_000_000_000_000_000n

  const state = {
    clock: null as number | null,
    offsetMs: 0,
    authorizeAs: "p-alice",
    /** Boards per page (Pinterest's page_size, at most 250). */
    boardPageSize: 25,
    /** Status reads a video takes in processing. */
    mediaPolls: 2,
    failNextMedia: false,
    /** Accounts whose pin analytics Pinterest refuses (a personal, not business, account). */
    noAnalytics: new Set<string>(),
    /** org_read calls per minute per user (Pinterest's category limit). */
    readsPerMinute: 1000
  }
  /** Pins' lifetime figures as Pinterest counts them (tests set them), by pin id. */
  const pinFigures = new Map<string, Record<string, number>>()
  const readWindows = new Map<string, { count: number; resetAt: number }>()
  const now = () => state.clock ?? Date.now() + state.offsetMs

  const send = sendJson
  const readBody = async (req: IncomingMessage) => {
    const { raw, type, parsed } = await readRequestBody(req)
    if (!type.startsWith("multipart/form-data")) return { parsed, file: null }
    const form = await new Response(raw, { headers: { "content-type": type } }).formData()
    const fields: Record<string, unknown> = {}
    let file: Buffer | null = null
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value
      else {
        file = Buffer.from(await value.arrayBuffer())
        fields[name] = { bytes: value.size, type: value.type }
      }
    }
    return { parsed: fields as unknown, file }
  }
  const issue = (user: string, scope: string) => {
    const access = `pina_${randomBytes(24).toString("hex")}`
    const refresh = `pinr_${randomBytes(24).toString("hex")}`
    everIssued.push(access, refresh)
    accessTokens.set(access, { user, expiresAt: now() + 2_592_000 * 1000 })
    // Continuous refresh tokens: 60 days from each refresh.
    const refreshEnd = now() + 5_184_000 * 1000
    refreshTokens.set(refresh, { user, expiresAt: refreshEnd })
    return {
      access_token: access,
      token_type: "bearer",
      expires_in: 2_592_000,
      refresh_token: refresh,
      refresh_token_expires_in: 5_184_000,
      refresh_token_expires_at: Math.floor(refreshEnd / 1000),
      scope
    }
  }
  const userOf = (req: IncomingMessage) => {
    const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1])
    return access !== undefined && access.expiresAt > now() ? access.user : null
  }
  const image = (contentType: unknown, data: unknown): { type: string; sha256: string } | string => {
    if (contentType !== "image/jpeg" && contentType !== "image/png")
      return "content_type must be image/jpeg or image/png"
    if (typeof data !== "string" || !/^[A-Za-z0-9+/]+=*$/.test(data)) return "data must be base64"
    return { type: contentType, sha256: sha(Buffer.from(data, "base64")) }
  }
  const pinView = (p: FakePin) => ({
    id: p.id,
    created_at: new Date(p.createdAt).toISOString().replace(/\.\d{3}Z$/, ""),
    board_id: p.boardId,
    title: p.title ?? "",
    description: p.description ?? "",
    link: p.link,
    media: {
      media_type: p.source === "video_id" ? "video" : p.source === "multiple_image_base64" ? "multiple_images" : "image"
    }
  })

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { parsed, file } = await readBody(req)
    const query = url.searchParams
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body, { ...reply.headers })
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (route === "GET /oauth/") {
      if (query.get("client_id") !== clientId || query.get("response_type") !== "code")
        return send(res, 400, problem(1, "Invalid client_id or response_type."))
      const back = new URL(query.get("redirect_uri") ?? "")
      const code = randomBytes(20).toString("hex")
      codes.set(code, {
        redirectUri: query.get("redirect_uri") ?? "",
        user: state.authorizeAs,
        scope: query.get("scope") ?? ""
      })
      back.searchParams.set("code", code)
      back.searchParams.set("state", query.get("state") ?? "")
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /v5/oauth/token") {
      if (req.headers.authorization !== `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`)
        return send(res, 401, problem(2, "Authentication failed."))
      if (body?.grant_type === "authorization_code") {
        const grant = codes.get(body.code)
        codes.delete(body.code)
        if (grant === undefined || grant.redirectUri !== body.redirect_uri)
          return send(res, 400, problem(1, "Invalid authorization code or redirect_uri."))
        return send(res, 200, issue(grant.user, grant.scope))
      }
      if (body?.grant_type === "refresh_token") {
        const refresh = refreshTokens.get(body.refresh_token)
        refreshTokens.delete(body.refresh_token)
        if (refresh === undefined || refresh.expiresAt <= now())
          return send(res, 400, problem(1, "Invalid refresh token."))
        return send(res, 200, issue(refresh.user, "boards:read,pins:read,pins:write,user_accounts:read"))
      }
      return send(res, 400, problem(1, "Unsupported grant_type."))
    }
    if (route === "POST /s3-upload") {
      const upload = [...media.values()].find((m) => m.parameters.key === body?.key)
      if (upload === undefined || Object.entries(upload.parameters).some(([k, v]) => body?.[k] !== v) || file === null)
        return send(res, 403, undefined)
      upload.sha256 = sha(file)
      upload.status = "processing"
      return send(res, 204)
    }

    const user = userOf(req)
    if (user === null) return send(res, 401, problem(2, "Authentication failed."))
    const account = users.get(user)!

    if (route === "GET /v5/user_account")
      return send(res, 200, {
        account_type: "BUSINESS",
        id: account.id,
        username: account.username,
        business_name: account.businessName,
        profile_image: `https://i.pinimg.com/${account.username}.jpg`,
        website_url: ""
      })
    if (route === "GET /v5/boards") {
      const size = Math.min(Number(query.get("page_size") ?? "25"), state.boardPageSize)
      const start = Number(query.get("bookmark") ?? "0")
      const items = account.boards
        .slice(start, start + size)
        .map((b) => ({ ...b, owner: { username: account.username } }))
      return send(res, 200, { items, bookmark: start + size < account.boards.length ? String(start + size) : null })
    }
    const boardPins = /^\/v5\/boards\/([^/]+)\/pins$/.exec(url.pathname)
    if (req.method === "GET" && boardPins !== null) {
      if (!account.boards.some((b) => b.id === boardPins[1])) return send(res, 404, problem(2, "Board not found."))
      return send(res, 200, {
        items: pins
          .filter((p) => p.boardId === boardPins[1])
          .sort((a, b) => b.createdAt - a.createdAt)
          .slice(0, Number(query.get("page_size") ?? "25"))
          .map(pinView),
        bookmark: null
      })
    }
    if (route === "POST /v5/media") {
      if (body?.media_type !== "video") return send(res, 400, problem(1, "media_type must be video."))
      const id = String(5_000_000_000 + media.size)
      const parameters = {
        key: `uploads/${id}/${randomBytes(6).toString("hex")}.mp4`,
        policy: randomBytes(12).toString("base64"),
        "x-amz-credential": "AKIA/20261121/us-east-1/s3/aws4_request",
        "x-amz-algorithm": "AWS4-HMAC-SHA256",
        "x-amz-date": "20261121T100000Z",
        "x-amz-signature": randomBytes(16).toString("hex")
      }
      media.set(id, { id, user, parameters, status: "registered", pollsLeft: state.mediaPolls, sha256: null })
      return send(res, 201, {
        media_id: id,
        media_type: "video",
        upload_url: `${origin}/s3-upload`,
        upload_parameters: parameters
      })
    }
    const mediaRead = /^\/v5\/media\/([^/]+)$/.exec(url.pathname)
    if (req.method === "GET" && mediaRead !== null) {
      const m = media.get(mediaRead[1])
      if (m === undefined || m.user !== user) return send(res, 404, problem(2, "Media not found."))
      if (m.status === "processing" && --m.pollsLeft <= 0) {
        m.status = state.failNextMedia ? "failed" : "succeeded"
        state.failNextMedia = false
      }
      return send(res, 200, { media_id: m.id, media_type: "video", status: m.status })
    }
    // DELETE /v5/pins/{pin_id} (pins:write): 204 No Content; 404 for a pin not there.
    const deleting = /^\/v5\/pins\/([^/]+)$/.exec(url.pathname)
    if (req.method === "DELETE" && deleting !== null) {
      const at = pins.findIndex((p) => p.id === deleting[1])
      if (at === -1) return send(res, 404, problem(50, "Pin not found."))
      pins.splice(at, 1)
      if (reply?.dropAnswer === true) return req.socket.destroy()
      res.writeHead(204)
      return res.end()
    }
    const analytics = /^\/v5\/pins\/([^/]+)\/analytics$/.exec(url.pathname)
    if (req.method === "GET" && analytics !== null) {
      let w = readWindows.get(user)
      if (w === undefined || w.resetAt <= now()) readWindows.set(user, (w = { count: 0, resetAt: now() + 60_000 }))
      if (w.count >= state.readsPerMinute)
        return send(res, 429, problem(8, "You have exceeded your rate limit. Try again later."), {
          "x-ratelimit-limit": String(state.readsPerMinute),
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.ceil((w.resetAt - now()) / 1000))
        })
      w.count++
      if (state.noAnalytics.has(user))
        return send(res, 403, problem(29, "You are not permitted to access that resource."))
      const [start, end, types] = [query.get("start_date"), query.get("end_date"), query.get("metric_types")]
      const day = /^\d{4}-\d{2}-\d{2}$/
      if (start === null || end === null || !day.test(start) || !day.test(end) || types === null)
        return send(res, 400, problem(1, "start_date, end_date and metric_types are required."))
      if (Date.parse(start) < now() - 90 * 86_400_000)
        return send(res, 400, problem(1, "start_date cannot be more than 90 days ago."))
      const pin = pins.find((p) => p.id === analytics[1])
      const counts = pinFigures.get(analytics[1])
      if (pin === undefined && counts === undefined) return send(res, 404, problem(50, "Pin not found."))
      const summary = Object.fromEntries(types.split(",").map((t) => [t, counts?.[t] ?? 0]))
      return send(res, 200, { all: { daily_metrics: [], summary_metrics: summary } })
    }
    if (route === "POST /v5/pins") {
      const board = account.boards.find((b) => b.id === body?.board_id)
      if (board === undefined) return send(res, 400, problem(1, "Board not found."))
      if ((body.title ?? "").length > 100 || (body.description ?? "").length > 800 || (body.link ?? "").length > 2048)
        return send(res, 400, problem(1, "Invalid Pin: title, description or link too long."))
      const source = body.media_source ?? {}
      let items: Array<{ type: string; sha256: string }> = []
      let cover: string | null = null
      if (source.source_type === "image_base64") {
        const one = image(source.content_type, source.data)
        if (typeof one === "string") return send(res, 400, problem(1, one))
        items = [one]
      } else if (source.source_type === "multiple_image_base64") {
        if (!Array.isArray(source.items) || source.items.length < 2 || source.items.length > 5)
          return send(res, 400, problem(1, "Invalid Pin: constraint: maxItems=5, minItems=2"))
        for (const item of source.items) {
          const one = image(item?.content_type, item?.data)
          if (typeof one === "string") return send(res, 400, problem(1, one))
          items.push(one)
        }
      } else if (source.source_type === "video_id") {
        const m = media.get(source.media_id)
        if (m === undefined || m.user !== user || m.status !== "succeeded")
          return send(res, 400, problem(1, "The video is not ready or not found."))
        if (source.cover_image_data !== undefined) {
          const c = image(source.cover_image_content_type, source.cover_image_data)
          if (typeof c === "string") return send(res, 400, problem(1, c))
          cover = `image:${c.sha256}`
        } else if (Number.isInteger(source.cover_image_key_frame_time))
          cover = `frame:${source.cover_image_key_frame_time}`
        else if (typeof source.cover_image_url === "string") cover = `url:${source.cover_image_url}`
        else
          return send(
            res,
            400,
            problem(1, "A video Pin needs a cover: cover_image_url, cover_image_data or cover_image_key_frame_time.")
          )
        items = [{ type: "video", sha256: m.sha256! }]
      } else return send(res, 400, problem(1, `Unsupported media_source.source_type ${source.source_type}.`))
      const pin: FakePin = {
        id: String(++pinCounter),
        boardId: board.id,
        user,
        title: body.title ?? null,
        description: body.description ?? null,
        link: body.link ?? null,
        createdAt: now(),
        source: source.source_type,
        media: items,
        cover
      }
      pins.push(pin)
      if (reply?.dropAnswer === true) return req.socket.destroy()
      return send(res, 201, pinView(pin))
    }
    send(res, 404, problem(404, `No route for ${route}`))
  }

  const { origin, close } = await listenLocally(handle, (res, e) => send(res, 500, problem(500, String(e))))

  return {
    origin,
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/oauth/`,
    tokenUrl: `${origin}/v5/oauth/token`,
    state,
    /** Sets a pin's lifetime figures under Pinterest's metric names (IMPRESSION, SAVE, OUTBOUND_CLICK...). */
    setFigures: (id: string, counts: Record<string, number>) => void pinFigures.set(id, counts),
    users,
    pins,
    requests: log.requests,
    script: log.script,
    calls: log.calls,
    revoke: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
      for (const [t, r] of refreshTokens) if (r.user === user) refreshTokens.delete(t)
    },
    expireAccess: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
    },
    issuedTokens: () => [...everIssued],
    close
  }
}

export type FakePinterest = Awaited<ReturnType<typeof startFakePinterest>>
