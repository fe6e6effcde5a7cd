import { randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A Mastodon instance stand-in, written from Mastodon's documentation (docs.joinmastodon.org:
 * methods/apps, methods/oauth, methods/accounts#verify_credentials, methods/instance#v2,
 * methods/media, methods/statuses (create, get, delete, and 4.3's index by id[]), api/rate-limits (deletes:
 * 30 per 30 minutes), api/guidelines#errors) and its status length
 * validator (text and content warning together, in graphemes; every http(s) link 23; a remote mention
 * as its username). It records what it got; tests script faults (a 401, a 429 with its headers, a
 * 422 with its `error`, uploads that stay in processing, a lost answer). docs/networks/mastodon.md
 * gathers what it answers as.
 */

export interface FakeStatus {
  readonly id: string
  readonly text: string
  readonly visibility: string
  readonly spoilerText: string
  readonly mediaIds: ReadonlyArray<string>
  readonly inReplyToId: string | null
  readonly poll: { readonly options: ReadonlyArray<string>; readonly expiresIn: number } | null
  readonly idempotencyKey: string | null
  readonly account: string
  /** Its public counts (tests set them; replies_count is counted from the statuses that answer it). */
  favourites: number
  reblogs: number
}

export interface FakeMedia {
  readonly id: string
  readonly type: string
  readonly bytes: number
  readonly filename: string
  /** Looks at GET /api/v1/media/:id still answered 206 before the file is processed. */
  pendingLooks: number
}

export interface FakeUser {
  readonly id: string
  readonly username: string
  readonly displayName: string
}

export interface FakeMastodonState {
  /** The instance's time (epoch ms); null: the real clock. Rate-limit resets are told from it. */
  clock: number | null
  /** The user the authorize page approves as. */
  authorizeAs: string
  /** The authorize page's answer: approve, or deny (error=access_denied). */
  deny: boolean
  maxCharacters: number
  /** Looks an async upload (video) stays in processing. */
  processingLooks: number
  /** Calls an account may make per window; each authenticated answer tells what is left. */
  rateLimit: number
  /** Deletes an account may make per 30 minutes (Mastodon's own window for them, beside the API's). */
  deleteLimit: number
  /** GET /api/v1/statuses?id[]= exists (Mastodon 4.3+); false: an older server, which answers 404. */
  statusesIndex: boolean
}

const users: ReadonlyArray<FakeUser> = [
  { id: "109001", username: "alice", displayName: "Alice Example" },
  { id: "109002", username: "bob", displayName: "Bob Example" }
]

const URL_RE = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g
const MENTION_RE = /(?<![=/\w])@(\w+(?:[.-]+\w+)*)(?:@[\w.-]*\w)?/g
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })
/** The status length validator: content warning and text, links 23, mentions their username, in graphemes. */
export const countableLength = (spoiler: string, text: string) =>
  [...segmenter.segment(spoiler + text.replace(URL_RE, "x".repeat(23)).replace(MENTION_RE, "@$1"))].length

export const startFakeMastodon = async () => {
  const log = requestLog()
  const state: FakeMastodonState = {
    clock: null,
    authorizeAs: "109001",
    deny: false,
    maxCharacters: 500,
    processingLooks: 2,
    rateLimit: 300,
    deleteLimit: 30,
    statusesIndex: true
  }
  const apps: Array<{ clientId: string; clientSecret: string; redirectUri: string; scopes: string; name: string }> = []
  const codes = new Map<string, { clientId: string; redirectUri: string; user: string }>()
  const tokens = new Map<string, { user: string; revoked: boolean }>()
  const media = new Map<string, FakeMedia & { account: string }>()
  const statuses: Array<FakeStatus> = []
  const keys = new Map<string, FakeStatus>()
  const used = new Map<string, number>()
  const deletes = new Map<string, number>()
  /** Ids of the statuses deleted, in order. */
  const deleted: Array<string> = []
  let ids = 110000
  const now = () => state.clock ?? Date.now()
  const windowReset = () => new Date(Math.floor(now() / 300_000) * 300_000 + 300_000).toISOString()
  let origin = ""

  const error = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    sendJson(res, status, { error: message }, headers)

  const accountOf = (user: FakeUser) => ({
    id: user.id,
    username: user.username,
    acct: user.username,
    display_name: user.displayName,
    avatar: `${origin}/avatars/${user.id}.png`,
    url: `${origin}/@${user.username}`
  })
  const statusJson = (s: FakeStatus) => ({
    id: s.id,
    url: `${origin}/@${users.find((u) => u.id === s.account)!.username}/${s.id}`,
    visibility: s.visibility,
    spoiler_text: s.spoilerText,
    in_reply_to_id: s.inReplyToId,
    content: `<p>${s.text}</p>`,
    favourites_count: s.favourites,
    reblogs_count: s.reblogs,
    replies_count: statuses.filter((r) => r.inReplyToId === s.id).length,
    media_attachments: s.mediaIds.map((id) => ({ id })),
    poll: s.poll === null ? null : { options: s.poll.options.map((title) => ({ title })) }
  })

  /** The bearer token's user, or an answered 401 (Doorkeeper's words: invalid, or revoked). */
  const authenticate = (req: IncomingMessage, res: ServerResponse): string | null => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1]
    const found = token === undefined ? undefined : tokens.get(token)
    if (found === undefined) return error(res, 401, "The access token is invalid"), null
    if (found.revoked) return error(res, 401, "The access token was revoked"), null
    return found.user
  }

  /** Counts the call against the account's window: the headers to answer with, or null when used up (429 sent). */
  const limited = (user: string, res: ServerResponse): Record<string, string> | null => {
    const n = (used.get(user) ?? 0) + 1
    used.set(user, n)
    const headers = {
      "x-ratelimit-limit": String(state.rateLimit),
      "x-ratelimit-remaining": String(Math.max(0, state.rateLimit - n)),
      "x-ratelimit-reset": windowReset()
    }
    if (n > state.rateLimit) return error(res, 429, "Too many requests", headers), null
    return headers
  }

  /**
   * A DELETE counts against the API's window and the deletes' own (30 minutes); it is answered with the
   * headers of the more limited of the two (Mastodon's RateLimitHeaders), and refused when either is used up.
   */
  const deleteLimited = (user: string, apiHeaders: Record<string, string>, res: ServerResponse) => {
    const n = (deletes.get(user) ?? 0) + 1
    deletes.set(user, n)
    const own = {
      "x-ratelimit-limit": String(state.deleteLimit),
      "x-ratelimit-remaining": String(Math.max(0, state.deleteLimit - n)),
      "x-ratelimit-reset": new Date(Math.floor(now() / 1_800_000) * 1_800_000 + 1_800_000).toISOString()
    }
    const headers =
      Number(own["x-ratelimit-remaining"]) <= Number(apiHeaders["x-ratelimit-remaining"]) ? own : apiHeaders
    if (n > state.deleteLimit) return error(res, 429, "Too many requests", headers), null
    return headers
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://instance")
    const method = req.method ?? "GET"
    const route = `${method} ${url.pathname}`
    const raw = await readRequestBody(req, (bytes, type) => ({ bytes: bytes.length, type }))
    let parsed = raw.parsed as Record<string, unknown> | undefined
    let form: FormData | null = null
    if (raw.type.startsWith("multipart/form-data")) {
      form = await new Request("http://x", {
        method: "POST",
        headers: { "content-type": raw.type },
        body: raw.raw
      }).formData()
      parsed = Object.fromEntries(
        [...form.keys()].map((k) => [k, typeof form!.get(k) === "string" ? form!.get(k) : "(file)"])
      )
    }
    const scripted = log.record(req, url, parsed)
    if (scripted !== null && scripted.dropAnswer !== true)
      return sendJson(res, scripted.status, scripted.body, scripted.headers ?? {})

    if (route === "POST /api/v1/apps") {
      const f = parsed as Record<string, string>
      if (!f?.client_name || !f.redirect_uris) return error(res, 422, "Validation failed: Name can't be blank")
      const app = {
        clientId: randomBytes(8).toString("hex"),
        clientSecret: randomBytes(16).toString("hex"),
        redirectUri: f.redirect_uris,
        scopes: f.scopes ?? "read",
        name: f.client_name
      }
      apps.push(app)
      return sendJson(res, 200, {
        id: String(apps.length),
        name: app.name,
        website: f.website ?? null,
        redirect_uri: app.redirectUri,
        client_id: app.clientId,
        client_secret: app.clientSecret
      })
    }
    if (route === "GET /oauth/authorize") {
      const q = Object.fromEntries(url.searchParams)
      const app = apps.find((a) => a.clientId === q.client_id)
      if (app === undefined) return error(res, 401, "Client authentication failed due to unknown client")
      if (app.redirectUri !== q.redirect_uri || q.response_type !== "code")
        return error(res, 400, "The redirect uri included is not valid.")
      if (!(q.scope ?? "").split(" ").every((s) => app.scopes.split(" ").includes(s)))
        return error(res, 400, "The requested scope is invalid, unknown, or malformed.")
      const back = new URL(q.redirect_uri!)
      if (state.deny) back.searchParams.set("error", "access_denied")
      else {
        const code = randomBytes(12).toString("hex")
        codes.set(code, { clientId: app.clientId, redirectUri: app.redirectUri, user: state.authorizeAs })
        back.searchParams.set("code", code)
      }
      if (q.state !== undefined) back.searchParams.set("state", q.state)
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /oauth/token") {
      const f = parsed as Record<string, string>
      const app = apps.find((a) => a.clientId === f.client_id && a.clientSecret === f.client_secret)
      if (app === undefined)
        return sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed" })
      const grant = codes.get(f.code ?? "")
      if (f.grant_type !== "authorization_code" || grant === undefined || grant.redirectUri !== f.redirect_uri)
        return sendJson(res, 400, {
          error: "invalid_grant",
          error_description:
            "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client."
        })
      codes.delete(f.code!)
      const token = randomBytes(20).toString("base64url")
      tokens.set(token, { user: grant.user, revoked: false })
      return sendJson(res, 200, {
        access_token: token,
        token_type: "Bearer",
        scope: app.scopes,
        created_at: Math.floor(now() / 1000)
      })
    }
    // The v1 Instance (deprecated in 4.0): the same statuses configuration, for servers without v2.
    if (route === "GET /api/v1/instance")
      return sendJson(res, 200, {
        uri: new URL(origin).host,
        title: "Fake instance",
        configuration: { statuses: { max_characters: state.maxCharacters, max_media_attachments: 4 } }
      })
    if (route === "GET /api/v2/instance")
      return sendJson(res, 200, {
        domain: new URL(origin).host,
        title: "Fake instance",
        configuration: {
          statuses: { max_characters: state.maxCharacters, max_media_attachments: 4, characters_reserved_per_url: 23 },
          media_attachments: {
            supported_mime_types: ["image/jpeg", "image/png", "image/gif", "image/webp", "video/mp4", "video/webm"],
            image_size_limit: 16_777_216,
            video_size_limit: 103_809_024
          },
          polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 }
        }
      })

    const user = authenticate(req, res)
    if (user === null) return
    const headers = limited(user, res)
    if (headers === null) return

    if (route === "GET /api/v1/accounts/verify_credentials") {
      const found = users.find((u) => u.id === user)!
      return sendJson(res, 200, accountOf(found), headers)
    }
    if (route === "POST /api/v2/media") {
      const file = form?.get("file")
      if (!(file instanceof Blob)) return error(res, 422, "Validation failed: File can't be blank", headers)
      const id = String(++ids)
      const isVideo = file.type.startsWith("video/")
      const item = {
        id,
        type: file.type,
        bytes: file.size,
        filename: (file as File).name,
        pendingLooks: isVideo ? state.processingLooks : 0,
        account: user
      }
      media.set(id, item)
      // Images are processed at once (200, url set); video is processed after the answer (202, url null).
      return sendJson(
        res,
        isVideo ? 202 : 200,
        { id, type: isVideo ? "video" : "image", url: isVideo ? null : `${origin}/media/${id}` },
        headers
      )
    }
    const mediaId = /^\/api\/v1\/media\/([^/]+)$/.exec(url.pathname)?.[1]
    if (method === "GET" && mediaId !== undefined) {
      const item = media.get(mediaId)
      if (item === undefined || item.account !== user) return error(res, 404, "Record not found", headers)
      if (item.pendingLooks > 0) {
        item.pendingLooks--
        return sendJson(res, 206, { id: item.id, url: null }, headers)
      }
      return sendJson(res, 200, { id: item.id, url: `${origin}/media/${item.id}` }, headers)
    }
    const statusId = /^\/api\/v1\/statuses\/([^/]+)$/.exec(url.pathname)?.[1]
    // Only the account's own statuses are deleted; another's, or one already gone, is "Record not found".
    if (method === "DELETE" && statusId !== undefined) {
      const own = deleteLimited(user, headers, res)
      if (own === null) return
      const at = statuses.findIndex((s) => s.id === statusId && s.account === user)
      if (at < 0) return error(res, 404, "Record not found", own)
      const [gone] = statuses.splice(at, 1)
      deleted.push(gone!.id)
      // The deleted status, with its source text (for "delete and redraft"); its replies stay.
      return sendJson(res, 200, { ...statusJson(gone!), text: gone!.text }, own)
    }
    // Mastodon 4.3+: the statuses among id[] the account may see, a missing one left out, the first 20 read.
    if (route === "GET /api/v1/statuses" && state.statusesIndex) {
      const wanted = [...new Set(url.searchParams.getAll("id[]"))].slice(0, 20)
      const found = wanted.flatMap((id) => statuses.filter((s) => s.id === id))
      return sendJson(res, 200, found.map(statusJson), headers)
    }
    if (method === "GET" && statusId !== undefined) {
      const found = statuses.find((s) => s.id === statusId)
      return found === undefined
        ? error(res, 404, "Record not found", headers)
        : sendJson(res, 200, statusJson(found), headers)
    }
    if (route === "POST /api/v1/statuses") {
      const b = (parsed ?? {}) as {
        status?: string
        media_ids?: Array<string>
        poll?: { options?: Array<string>; expires_in?: number }
        in_reply_to_id?: string
        spoiler_text?: string
        visibility?: string
      }
      const key = req.headers["idempotency-key"] as string | undefined
      const known = key === undefined ? undefined : keys.get(`${user} ${key}`)
      if (known !== undefined) return sendJson(res, 200, statusJson(known), headers)
      const text = b.status ?? ""
      const mediaIds = b.media_ids ?? []
      if (text.trim() === "" && mediaIds.length === 0 && b.poll === undefined)
        return error(res, 422, "Validation failed: Text can't be blank", headers)
      if (countableLength(b.spoiler_text ?? "", text) > state.maxCharacters)
        return error(res, 422, `Validation failed: Text character limit of ${state.maxCharacters} exceeded`, headers)
      if (mediaIds.length > 0 && b.poll !== undefined)
        return error(res, 422, "Validation failed: Poll cannot be attached to a status with media", headers)
      for (const id of mediaIds) {
        const item = media.get(id)
        if (item === undefined || item.account !== user)
          return error(res, 422, "Validation failed: media not found", headers)
        if (item.pendingLooks > 0)
          return error(
            res,
            422,
            "Cannot attach files that have not finished processing. Try again in a moment!",
            headers
          )
      }
      if (b.in_reply_to_id !== undefined && !statuses.some((s) => s.id === b.in_reply_to_id))
        return error(res, 404, "Record not found", headers)
      if (b.visibility !== undefined && !["public", "unlisted", "private", "direct"].includes(b.visibility))
        return error(res, 422, "Validation failed: Visibility is not included in the list", headers)
      const status: FakeStatus = {
        id: String(++ids),
        text,
        visibility: b.visibility ?? "public",
        spoilerText: b.spoiler_text ?? "",
        mediaIds,
        inReplyToId: b.in_reply_to_id ?? null,
        poll: b.poll === undefined ? null : { options: b.poll.options ?? [], expiresIn: b.poll.expires_in ?? 0 },
        idempotencyKey: key ?? null,
        account: user,
        favourites: 0,
        reblogs: 0
      }
      statuses.push(status)
      if (key !== undefined) keys.set(`${user} ${key}`, status)
      if (scripted?.dropAnswer === true) return void res.socket?.destroy()
      return sendJson(res, 200, statusJson(status), headers)
    }
    return error(res, 404, "Not found", headers)
  }

  const served = await listenLocally(handle, (res, e) => error(res, 500, String(e)))
  origin = served.origin
  return {
    origin,
    host: new URL(origin).host,
    state,
    log,
    apps,
    statuses,
    deleted,
    media,
    users,
    /** Revokes every token issued to `user` (the person removed the app in their settings). */
    revoke: (user: string) => {
      for (const t of tokens.values()) if (t.user === user) t.revoked = true
    },
    issuedTokens: () => [...tokens.keys()],
    /** Starts the accounts' rate-limit windows afresh. */
    resetWindows: () => {
      used.clear()
      deletes.clear()
    },
    close: served.close
  }
}

export type FakeMastodon = Awaited<ReturnType<typeof startFakeMastodon>>
