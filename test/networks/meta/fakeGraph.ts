import { createHmac, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local Meta: the parts of the Graph API (Facebook Pages, Instagram with Facebook Login or
 * Instagram Login) and of the Threads API that Herald uses, with their logins, as Meta documents
 * them (docs/networks/facebook.md, instagram.md, threads.md). One server plays every host (graph.facebook.com,
 * www.facebook.com, graph.instagram.com, api.instagram.com, www.instagram.com, graph.threads.net,
 * threads.net): the apps' client ids tell the logins apart. It checks what Meta checks (client
 * secrets, redirect URIs, token kinds and expiry, Page tokens for Page calls, containers FINISHED
 * before publishing), fetches media from the URLs it is given (as Meta does; a reel's from the
 * `file_url` header of its rupload), takes Instagram stories (media_type=STORIES, one image_url or
 * video_url, no caption or carousel) and lists them at /{ig-user}/stories, answers in Meta's shapes and headers, records every request,
 * and lets a test script failures.
 */

type App = "facebook" | "instagram" | "threads"
type TokenKind = "fb-user" | "page" | "ig-user" | "threads-user"

interface Token {
  readonly kind: TokenKind
  /** The Facebook user, Page, Instagram user or Threads user it acts for. */
  readonly subject: string
  readonly issuedAt: number
  /** Null: does not expire (a Page token from a long-lived user token). */
  readonly expiresAt: number | null
  readonly scopes: ReadonlyArray<string>
  /** The user token a Page token came from (revoking the user revokes it). */
  readonly user: string
}

export interface FakePage {
  readonly id: string
  readonly name: string
  readonly username: string
  /** The Facebook users with a role on the Page, and their tasks. */
  readonly roles: Readonly<Record<string, ReadonlyArray<string>>>
  /** Reached only through this business portfolio (not in /me/accounts). */
  readonly business: string | null
  readonly instagram: string | null
}

export interface FakeIgUser {
  readonly id: string
  readonly username: string
  readonly name: string
  /** The Instagram Login user id (app-scoped) of this professional account. */
  readonly loginId: string
}

interface Container {
  readonly id: string
  readonly app: "instagram" | "threads"
  readonly owner: string
  readonly params: Readonly<Record<string, string>>
  status: "IN_PROGRESS" | "FINISHED" | "ERROR" | "EXPIRED" | "PUBLISHED"
  pollsLeft: number
  error: string | null
  publishedAs: string | null
}

export interface FakePost {
  readonly id: string
  readonly app: App
  /** The Page, Instagram user or Threads user. */
  readonly owner: string
  readonly kind: "feed" | "video" | "media" | "story" | "thread" | "comment"
  readonly text: string
  readonly createdAt: number
  /** Feed: the link; media/thread: the container; comment: the object commented on; thread reply: the parent. */
  readonly link: string | null
  readonly attached: ReadonlyArray<string>
  readonly container: string | null
  readonly replyTo: string | null
  readonly mediaType: string | null
  readonly children: ReadonlyArray<string>
  readonly cover: string | null
}

interface Video {
  readonly id: string
  readonly page: string
  description: string
  readonly createdAt: number
  pollsLeft: number
  status: "processing" | "ready" | "error"
  readonly thumbBytes: number
  /** A reel's upload session (video_reels): its file comes by the upload URL, and it is published by finish. */
  readonly reel: boolean
  /** The bytes Meta fetched for it; null before a reel's upload. */
  uploadedBytes: number | null
  /** A reel's finish was received (a Page video is published when created). */
  finished: boolean
}

interface MediaFetch {
  readonly url: string
  readonly status: number
  readonly bytes: number
  readonly type: string | null
}

const DAY_MS = 24 * 60 * 60_000
const LONG_LIVED_S = 60 * 24 * 60 * 60
const graphError = (status: number, code: number, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  body: {
    error: {
      message,
      type: code === 190 ? "OAuthException" : "OAuthException",
      code,
      ...extra,
      fbtrace_id: `A${randomBytes(6).toString("hex")}`
    }
  }
})
const invalidToken = (subcode?: number) =>
  graphError(
    400,
    190,
    subcode === 463
      ? "Error validating access token: Session has expired."
      : subcode === 460
        ? "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons."
        : "Invalid OAuth access token - Cannot parse access token",
    subcode === undefined ? {} : { error_subcode: subcode }
  )
const badParam = (message: string, extra: Record<string, unknown> = {}) => graphError(400, 100, message, extra)

const tokenString = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`

export const startFakeGraph = async () => {
  const apps: Record<App, { clientId: string; clientSecret: string }> = {
    facebook: { clientId: "1100000000000001", clientSecret: "fb-secret-0123456789abcdef" },
    instagram: { clientId: "1200000000000002", clientSecret: "ig-secret-0123456789abcdef" },
    threads: { clientId: "1300000000000003", clientSecret: "th-secret-0123456789abcdef" }
  }
  const fbUsers = new Map([
    ["10150000000000001", { id: "10150000000000001", name: "Ada Owner" }],
    ["10150000000000002", { id: "10150000000000002", name: "Bo Owner" }]
  ])
  const pages = new Map<string, FakePage>([
    [
      "101000000000001",
      {
        id: "101000000000001",
        name: "Herald Bakery",
        username: "heraldbakery",
        roles: { "10150000000000001": ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"] },
        business: null,
        instagram: "17841400000000001"
      }
    ],
    [
      "101000000000002",
      {
        id: "101000000000002",
        name: "Herald Books",
        username: "heraldbooks",
        roles: { "10150000000000001": ["ANALYZE", "CREATE_CONTENT", "MODERATE"] },
        business: null,
        instagram: null
      }
    ],
    [
      "101000000000003",
      {
        id: "101000000000003",
        name: "Herald Studio",
        username: "heraldstudio",
        roles: { "10150000000000001": ["CREATE_CONTENT", "MODERATE"] },
        business: "200000000000001",
        instagram: null
      }
    ],
    [
      "101000000000004",
      {
        id: "101000000000004",
        name: "Herald Archive",
        username: "heraldarchive",
        roles: {},
        business: "200000000000001",
        instagram: null
      }
    ],
    [
      "101000000000005",
      {
        id: "101000000000005",
        name: "Bo's Page",
        username: "bospage",
        roles: { "10150000000000002": ["CREATE_CONTENT", "MANAGE"] },
        business: null,
        instagram: "17841400000000005"
      }
    ]
  ])
  const businesses = new Map([
    ["200000000000001", { id: "200000000000001", name: "Herald Group", members: ["10150000000000001"] }]
  ])
  const igUsers = new Map<string, FakeIgUser>([
    [
      "17841400000000001",
      { id: "17841400000000001", username: "herald.bakery", name: "Herald Bakery IG", loginId: "26000000000000001" }
    ],
    [
      "17841400000000005",
      { id: "17841400000000005", username: "bos.page", name: "Bo IG", loginId: "26000000000000005" }
    ],
    [
      "17841400000000099",
      { id: "17841400000000099", username: "herald.solo", name: "Herald Solo", loginId: "26000000000000099" }
    ]
  ])
  const threadsUsers = new Map([
    ["7000000000000001", { id: "7000000000000001", username: "herald.threads", name: "Herald on Threads" }],
    ["7000000000000002", { id: "7000000000000002", username: "bo.threads", name: "Bo on Threads" }]
  ])
  const codes = new Map<string, { app: App; redirectUri: string; subject: string; scopes: ReadonlyArray<string> }>()
  const tokens = new Map<string, Token>()
  const containers = new Map<string, Container>()
  const posts: Array<FakePost> = []
  const videos = new Map<string, Video>()
  const photos = new Map<string, { page: string; url: string; used: boolean }>()
  const log = requestLog<Readonly<Record<string, unknown>>>()
  const fetches: Array<MediaFetch> = []
  const publishedPerDay = new Map<string, Array<number>>()
  let nextId = 18_000_000_000_000_000n

  /** Posts' insights as Meta counts them (tests set them), or "few-viewers" for (#10) Not enough viewers. */
  const insights = new Map<string, Record<string, number> | "few-viewers">()
  const state = {
    /** Meta's "Require App Secret" app setting: every API call must carry appsecret_proof (HMAC-SHA256 of its token). */
    requireProof: false,
    clock: null as number | null,
    offsetMs: 0,
    /** Who approves on each login's dialog. */
    facebookUser: "10150000000000001",
    instagramUser: "17841400000000099",
    threadsUser: "7000000000000001",
    /** The person declines in the dialog. */
    deny: false,
    /** Scopes the person grants on Facebook: the asked ones unless set. */
    grantedFacebookScopes: null as ReadonlyArray<string> | null,
    /** Permissions the person declines on any dialog (an insights permission, say). */
    withheldScopes: [] as Array<string>,
    /** Status polls a container answers IN_PROGRESS before FINISHED (videos take `videoPolls`). */
    containerPolls: 2,
    videoPolls: 3,
    /** The next container (or carousel item) created fails processing / expires unpublished. */
    failNextContainer: null as string | null,
    expireNextContainer: false,
    /** Instagram's 24-hour publishing cap. */
    instagramDailyCap: 50,
    /** Where the fake fetches media: a test host listens elsewhere than HERALD_PUBLIC_URL says. */
    rewriteMediaUrl: (url: string) => url
  }
  const now = () => state.clock ?? Date.now() + state.offsetMs
  const newId = () => String(++nextId)

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) =>
    sendJson(res, status, body, {
      "x-app-usage": JSON.stringify({ call_count: 1, total_cputime: 1, total_time: 1 }),
      ...headers
    })
  const sendError = (res: ServerResponse, e: { status: number; body: unknown }) => send(res, e.status, e.body)

  const readBody = async (
    req: IncomingMessage
  ): Promise<{ fields: Record<string, unknown>; files: Record<string, Blob> }> => {
    const { raw, type, parsed } = await readRequestBody(req, () => ({}))
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(raw, { headers: { "content-type": type } }).formData()
      const fields: Record<string, unknown> = {}
      const files: Record<string, Blob> = {}
      for (const [name, value] of form.entries()) {
        if (typeof value === "string") fields[name] = value
        else {
          files[name] = value
          fields[name] = { bytes: value.size, type: value.type }
        }
      }
      return { fields, files }
    }
    return { fields: (parsed ?? {}) as Record<string, unknown>, files: {} }
  }

  /** Meta fetches the media itself: an answer other than 200 with bytes fails the container or the call. */
  const fetchMedia = async (url: string): Promise<MediaFetch> => {
    try {
      const response = await fetch(state.rewriteMediaUrl(url), { redirect: "manual" })
      const bytes = (await response.arrayBuffer()).byteLength
      const fetched = { url, status: response.status, bytes, type: response.headers.get("content-type") }
      fetches.push(fetched)
      return fetched
    } catch (_e) {
      const failed = { url, status: 0, bytes: 0, type: null }
      fetches.push(failed)
      return failed
    }
  }

  const issue = (
    kind: TokenKind,
    subject: string,
    lifetimeS: number | null,
    scopes: ReadonlyArray<string>,
    user: string
  ) => {
    const t = tokenString(kind === "page" ? "EAAP" : kind === "fb-user" ? "EAAU" : kind === "ig-user" ? "IGAA" : "THAA")
    tokens.set(t, {
      kind,
      subject,
      issuedAt: now(),
      expiresAt: lifetimeS === null ? null : now() + lifetimeS * 1000,
      scopes,
      user
    })
    return t
  }

  /** The token a call carries (access_token parameter, or an Authorization header). */
  const tokenOf = (req: IncomingMessage, query: URLSearchParams, fields: Record<string, unknown>) => {
    const header = /^(?:Bearer|OAuth) (.+)$/.exec(req.headers.authorization ?? "")?.[1]
    return header ?? query.get("access_token") ?? (typeof fields.access_token === "string" ? fields.access_token : null)
  }
  const check = (t: string | null): { token: Token } | { error: { status: number; body: unknown } } => {
    if (t === null) return { error: graphError(400, 104, "An access token is required to request this resource.") }
    const found = tokens.get(t)
    if (found === undefined) return { error: invalidToken(460) }
    if (found.expiresAt !== null && found.expiresAt <= now()) return { error: invalidToken(463) }
    return { token: found }
  }

  const pageRow = (page: FakePage, user: string, fields: string, longLived: boolean) => {
    const tasks = page.roles[user]
    const row: Record<string, unknown> = { id: page.id, name: page.name }
    if (fields.includes("username")) row.username = page.username
    if (fields.includes("tasks") && tasks !== undefined) row.tasks = tasks
    // A Page token from a long-lived user token does not expire; from a short-lived one, it ends with it.
    if (fields.includes("access_token") && tasks !== undefined)
      row.access_token = issue("page", page.id, longLived ? null : 3600, [], user)
    if (fields.includes("picture")) row.picture = { data: { url: `https://scontent.example/${page.id}.jpg` } }
    if (fields.includes("instagram_business_account") && page.instagram !== null) {
      const ig = igUsers.get(page.instagram)!
      row.instagram_business_account = {
        id: ig.id,
        username: ig.username,
        name: ig.name,
        profile_picture_url: `https://scontent.example/${ig.id}.jpg`
      }
    }
    return row
  }

  const list = (rows: ReadonlyArray<unknown>, query: URLSearchParams) => {
    const limit = Number(query.get("limit") ?? "25")
    const offset = Number(query.get("after") ?? "0")
    const page = rows.slice(offset, offset + limit)
    const more = offset + limit < rows.length
    return {
      data: page,
      paging: {
        cursors: { before: String(offset), after: String(offset + page.length) },
        ...(more ? { next: `https://graph.example/next?after=${offset + page.length}` } : {})
      }
    }
  }

  /** Instagram's and Threads' posts a token may act for: its own user, or (Facebook Login) the Instagram account linked to its Page. */
  const actsFor = (token: Token, owner: string) =>
    token.subject === owner ||
    (token.kind === "page" && pages.get(token.subject)?.instagram === owner) ||
    (token.kind === "ig-user" && igUsers.get(owner)?.loginId === token.subject)

  const createContainer = async (
    res: ServerResponse,
    app: "instagram" | "threads",
    owner: string,
    fields: Record<string, string>
  ) => {
    const url = fields.image_url ?? fields.video_url
    const isCarousel = fields.media_type === "CAROUSEL"
    if (app === "instagram" && !isCarousel && url === undefined)
      return sendError(res, badParam("(#100) The parameter image_url is required."))
    if (app === "threads" && fields.media_type === undefined)
      return sendError(res, badParam("(#100) The parameter media_type is required."))
    if (app === "threads" && fields.media_type === "TEXT" && (fields.text ?? "") === "")
      return sendError(res, badParam("(#100) The parameter text is required."))
    if (app === "threads" && (fields.text?.length ?? 0) > 500)
      return sendError(res, badParam("Param text must be at most 500 characters long."))
    if (app === "instagram" && (fields.caption?.length ?? 0) > 2200)
      return sendError(res, badParam("The caption is too long.", { error_subcode: 2_207_010 }))
    if (isCarousel) {
      const children = (fields.children ?? "").split(",").filter((c) => c !== "")
      const max = app === "instagram" ? 10 : 20
      if (children.length < 2 || children.length > max)
        return sendError(res, badParam(`(#100) A carousel takes 2 to ${max} children.`))
      for (const id of children) {
        const child = containers.get(id)
        if (child === undefined || child.owner !== owner || child.params.is_carousel_item !== "true")
          return sendError(res, badParam(`(#100) Invalid child ${id}.`))
        if (child.status !== "FINISHED")
          return sendError(
            res,
            graphError(400, 9007, "Media ID is not available", {
              error_subcode: 2_207_027,
              error_user_title: "Media not ready",
              error_user_msg: "The media is not ready for publishing, please wait for a moment."
            })
          )
      }
    }
    // Stories (IG User Media, media_type=STORIES): one image_url or video_url; no carousel, and no caption shown.
    if (app === "instagram" && fields.media_type === "STORIES") {
      if (url === undefined) return sendError(res, badParam("(#100) The parameter image_url or video_url is required."))
      if (fields.is_carousel_item !== undefined)
        return sendError(res, badParam("(#100) Stories cannot be carousel items."))
      if (fields.caption !== undefined)
        return sendError(res, badParam("(#100) Param caption is not supported for stories."))
    }
    if (fields.reply_to_id !== undefined && !posts.some((p) => p.id === fields.reply_to_id))
      return sendError(res, badParam("(#100) The reply_to_id does not exist."))
    const isVideo =
      fields.media_type === "VIDEO" ||
      fields.media_type === "REELS" ||
      (fields.media_type === "STORIES" && fields.video_url !== undefined)
    const container: Container = {
      id: newId(),
      app,
      owner,
      params: fields,
      status: "IN_PROGRESS",
      pollsLeft: isVideo ? state.videoPolls : state.containerPolls,
      error: null,
      publishedAs: null
    }
    if (url !== undefined) {
      const fetched = await fetchMedia(url)
      if (fetched.status !== 200 || fetched.bytes === 0) {
        container.status = "ERROR"
        container.error =
          app === "instagram"
            ? "Error: Media download has failed. The media URI doesn't meet our requirements."
            : isVideo
              ? "FAILED_DOWNLOADING_VIDEO"
              : "FAILED_DOWNLOADING_IMAGE"
      } else if (app === "instagram" && fields.image_url !== undefined && fetched.type !== "image/jpeg") {
        // Instagram's content publishing takes JPEG only.
        container.status = "ERROR"
        container.error =
          "Error: Only photo or video can be accepted as media type. The image format is not supported: use JPEG."
      }
    }
    if (fields.cover_url !== undefined) {
      const cover = await fetchMedia(fields.cover_url)
      if (cover.status !== 200) {
        container.status = "ERROR"
        container.error = "Error: The cover image could not be fetched."
      }
    }
    if (container.status === "IN_PROGRESS" && state.failNextContainer !== null) {
      container.status = "ERROR"
      container.error = state.failNextContainer
      state.failNextContainer = null
    }
    containers.set(container.id, container)
    send(res, 200, { id: container.id })
  }

  const pollContainer = (c: Container) => {
    if (c.status !== "IN_PROGRESS") return
    if (state.expireNextContainer) {
      state.expireNextContainer = false
      c.status = "EXPIRED"
      return
    }
    c.pollsLeft--
    if (c.pollsLeft <= 0) c.status = "FINISHED"
  }

  const publishContainer = (
    res: ServerResponse,
    req: IncomingMessage,
    app: "instagram" | "threads",
    owner: string,
    creationId: string | undefined,
    dropAnswer: boolean
  ) => {
    const c = creationId === undefined ? undefined : containers.get(creationId)
    if (c === undefined || c.owner !== owner)
      return sendError(res, badParam("(#100) Param creation_id must be a valid container id."))
    if (c.status === "PUBLISHED")
      return sendError(
        res,
        graphError(400, 9007, "Media ID is not available", {
          error_subcode: 2_207_008,
          error_user_title: "Already published",
          error_user_msg: "This media has already been published."
        })
      )
    if (c.status !== "FINISHED")
      return sendError(
        res,
        graphError(400, 9007, "Media ID is not available", {
          error_subcode: 2_207_027,
          error_user_title: "Media not ready for publishing",
          error_user_msg: "The media is not ready for publishing, please wait for a moment."
        })
      )
    if (app === "instagram") {
      const day = (publishedPerDay.get(owner) ?? []).filter((t) => t > now() - DAY_MS)
      if (day.length >= state.instagramDailyCap)
        return sendError(
          res,
          graphError(400, 9, "Application request limit reached", {
            error_subcode: 2_207_042,
            error_user_title: "Reached publishing limit",
            error_user_msg:
              "You reached the maximum number of posts that is allowed to be published by Content Publishing API."
          })
        )
      publishedPerDay.set(owner, [...day, now()])
    }
    const id = newId()
    c.status = "PUBLISHED"
    c.publishedAs = id
    const p = c.params
    posts.push({
      id,
      app,
      owner,
      kind: app === "instagram" ? (p.media_type === "STORIES" ? "story" : "media") : "thread",
      text: p.caption ?? p.text ?? "",
      createdAt: now(),
      link: null,
      attached: [],
      container: c.id,
      replyTo: p.reply_to_id ?? null,
      mediaType: p.media_type ?? "IMAGE",
      children: (p.children ?? "").split(",").filter((x) => x !== ""),
      cover: p.cover_url ?? p.thumb_offset ?? null
    })
    if (dropAnswer) return req.socket.destroy()
    send(res, 200, { id })
  }

  const permalinkOf = (p: FakePost) =>
    p.kind === "story"
      ? `https://www.instagram.com/stories/${igUsers.get(p.owner)?.username}/${p.id}/`
      : p.app === "instagram"
        ? `https://www.instagram.com/p/${p.id.slice(-11)}/`
        : p.app === "threads"
          ? `https://www.threads.net/@${threadsUsers.get(p.owner)?.username}/post/${p.id.slice(-11)}`
          : `https://www.facebook.com/${p.id}`

  const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+0000")

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { fields: parsed, files } = await readBody(req)
    const query = url.searchParams
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body, { ...reply.headers })
    const dropAnswer = reply?.dropAnswer === true
    const fields = parsed as Record<string, string>
    const param = (name: string): string | undefined =>
      query.get(name) ?? (typeof fields[name] === "string" ? fields[name] : undefined)
    const method = req.method ?? "GET"

    // Logins: the dialogs, then the token endpoints.
    const dialog = /^\/v\d+\.\d+\/dialog\/oauth$/.test(url.pathname)
      ? "facebook"
      : url.pathname === "/oauth/authorize"
        ? query.get("client_id") === apps.threads.clientId
          ? "threads"
          : "instagram"
        : null
    if (method === "GET" && dialog !== null) {
      const app = apps[dialog]
      const redirectUri = query.get("redirect_uri") ?? ""
      if (
        query.get("client_id") !== app.clientId ||
        query.get("response_type") !== "code" ||
        !/^https?:\/\//.test(redirectUri)
      )
        return send(res, 400, {
          error: { message: "Invalid App ID or redirect_uri", type: "OAuthException", code: 191 }
        })
      const back = new URL(redirectUri)
      back.searchParams.set("state", query.get("state") ?? "")
      if (state.deny) {
        back.searchParams.set("error", "access_denied")
        back.searchParams.set("error_reason", "user_denied")
        back.searchParams.set("error_description", "Permissions error")
      } else {
        const asked = (query.get("scope") ?? "").split(",").filter((s) => s !== "")
        const subject =
          dialog === "facebook"
            ? state.facebookUser
            : dialog === "instagram"
              ? igUsers.get(state.instagramUser)!.loginId
              : state.threadsUser
        const code = tokenString("AQ")
        codes.set(code, {
          app: dialog,
          redirectUri,
          subject,
          scopes: (dialog === "facebook" ? (state.grantedFacebookScopes ?? asked) : asked).filter(
            (scope) => !state.withheldScopes.includes(scope)
          )
        })
        back.searchParams.set("code", code)
      }
      res.writeHead(302, { location: `${back.toString()}${dialog === "instagram" ? "#_" : ""}` })
      return res.end()
    }
    const codeExchange = (app: App) => {
      const grant = codes.get(param("code") ?? "")
      codes.delete(param("code") ?? "")
      if (param("client_id") !== apps[app].clientId || param("client_secret") !== apps[app].clientSecret)
        return sendError(res, graphError(400, 101, "Error validating client secret."))
      if (grant === undefined || grant.app !== app || grant.redirectUri !== param("redirect_uri"))
        return sendError(res, graphError(400, 100, "Invalid verification code format.", { error_subcode: 36_007 }))
      if (app === "facebook")
        return send(res, 200, {
          access_token: issue("fb-user", grant.subject, 5400, grant.scopes, grant.subject),
          token_type: "bearer",
          expires_in: 5400
        })
      if (app === "instagram") {
        const t = issue("ig-user", grant.subject, 3600, grant.scopes, grant.subject)
        return send(res, 200, {
          data: [{ access_token: t, user_id: grant.subject, permissions: grant.scopes.join(",") }]
        })
      }
      return send(res, 200, {
        access_token: issue("threads-user", grant.subject, 3600, grant.scopes, grant.subject),
        user_id: grant.subject
      })
    }
    if (/^\/v\d+\.\d+\/oauth\/access_token$/.test(url.pathname)) {
      if (param("grant_type") === "fb_exchange_token") {
        if (param("client_id") !== apps.facebook.clientId || param("client_secret") !== apps.facebook.clientSecret)
          return sendError(res, graphError(400, 101, "Error validating client secret."))
        const short = check(param("fb_exchange_token") ?? null)
        if ("error" in short) return sendError(res, short.error)
        return send(res, 200, {
          access_token: issue("fb-user", short.token.subject, LONG_LIVED_S, short.token.scopes, short.token.subject),
          token_type: "bearer",
          expires_in: LONG_LIVED_S
        })
      }
      return codeExchange("facebook")
    }
    if (method === "POST" && url.pathname === "/oauth/access_token")
      return codeExchange(param("client_id") === apps.threads.clientId ? "threads" : "instagram")
    if (method === "GET" && (url.pathname === "/access_token" || url.pathname === "/refresh_access_token")) {
      const grantType = param("grant_type")
      const app: App = grantType?.startsWith("th_") ? "threads" : "instagram"
      const t = check(param("access_token") ?? null)
      if ("error" in t) return sendError(res, t.error)
      const kind = app === "threads" ? "threads-user" : "ig-user"
      if (t.token.kind !== kind) return sendError(res, invalidToken())
      if (url.pathname === "/access_token") {
        if (
          grantType !== (app === "threads" ? "th_exchange_token" : "ig_exchange_token") ||
          param("client_secret") !== apps[app].clientSecret
        )
          return sendError(res, graphError(400, 101, "Error validating client secret."))
      } else {
        if (grantType !== (app === "threads" ? "th_refresh_token" : "ig_refresh_token"))
          return sendError(res, badParam("Unsupported grant_type."))
        // Only a long-lived token at least a day old can be renewed.
        if (
          t.token.expiresAt === null ||
          t.token.expiresAt - t.token.issuedAt < DAY_MS ||
          now() - t.token.issuedAt < DAY_MS
        )
          return sendError(
            res,
            graphError(400, 190, "Error validating access token: the token cannot be refreshed yet.", {
              error_subcode: 467
            })
          )
      }
      return send(res, 200, {
        access_token: issue(kind, t.token.subject, LONG_LIVED_S, t.token.scopes, t.token.user),
        token_type: "bearer",
        expires_in: LONG_LIVED_S
      })
    }

    // rupload.facebook.com: a reel's file, fetched by Meta from the file_url header, for the Page token's own reel.
    const upload = /^\/video-upload\/v\d+\.\d+\/(\d+)$/.exec(url.pathname)
    if (method === "POST" && upload !== null) {
      const reel = videos.get(upload[1]!)
      const t = check(/^OAuth (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null)
      if ("error" in t) return sendError(res, t.error)
      if (reel === undefined || !reel.reel || t.token.kind !== "page" || t.token.subject !== reel.page)
        return sendError(res, graphError(403, 200, "(#200) Permissions error"))
      const fileUrl = req.headers.file_url
      if (typeof fileUrl !== "string")
        return sendError(
          res,
          badParam("(#100) A file_url header, or offset and file_size headers with the bytes, are required.")
        )
      const fetched = await fetchMedia(fileUrl)
      if (fetched.status !== 200 || fetched.bytes === 0) {
        reel.status = "error"
        return sendError(res, badParam("(#100) The video file could not be downloaded."))
      }
      reel.uploadedBytes = fetched.bytes
      if (dropAnswer) return req.socket.destroy()
      return send(res, 200, { success: true })
    }

    // The APIs: /{version}/...
    const versioned = /^\/(v\d+\.\d+)(\/.*)$/.exec(url.pathname)
    if (versioned === null) return sendError(res, graphError(400, 2500, `Unknown path components: ${url.pathname}`))
    const [, , rest] = versioned
    const parts = rest!.split("/").filter((p) => p !== "")
    const presented = tokenOf(req, query, fields)
    const checked = check(presented)
    if ("error" in checked) return sendError(res, checked.error)
    const token = checked.token
    // developers.facebook.com/docs/graph-api/securing-requests: appsecret_proof = hex HMAC-SHA256(app secret, token).
    const proof =
      query.get("appsecret_proof") ?? (typeof fields.appsecret_proof === "string" ? fields.appsecret_proof : null)
    const app: App = token.kind === "ig-user" ? "instagram" : token.kind === "threads-user" ? "threads" : "facebook"
    if (proof === null && state.requireProof)
      return sendError(res, graphError(400, 100, "API calls from the server require an appsecret_proof argument"))
    if (proof !== null && proof !== createHmac("sha256", apps[app].clientSecret).update(presented!).digest("hex"))
      return sendError(res, graphError(400, 100, "Invalid appsecret_proof provided in the API argument"))
    const fieldList = query.get("fields") ?? ""
    const buc = (page: string) => ({
      "x-business-use-case-usage": JSON.stringify({
        [page]: [{ type: "pages", call_count: 2, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 0 }]
      })
    })

    // /me
    if (method === "GET" && parts.length === 1 && parts[0] === "me") {
      if (token.kind === "ig-user") {
        const ig = [...igUsers.values()].find((u) => u.loginId === token.subject)!
        return send(res, 200, {
          id: ig.loginId,
          user_id: ig.id,
          username: ig.username,
          name: ig.name,
          profile_picture_url: `https://scontent.example/${ig.id}.jpg`
        })
      }
      if (token.kind === "threads-user") {
        const u = threadsUsers.get(token.subject)!
        return send(res, 200, {
          id: u.id,
          username: u.username,
          name: u.name,
          threads_profile_picture_url: `https://scontent.example/${u.id}.jpg`
        })
      }
      const u = fbUsers.get(token.subject)
      return send(
        res,
        200,
        u === undefined ? { id: token.subject, name: pages.get(token.subject)?.name } : { id: u.id, name: u.name }
      )
    }
    if (method === "GET" && parts[0] === "me" && (parts[1] === "accounts" || parts[1] === "businesses")) {
      if (token.kind !== "fb-user")
        return sendError(
          res,
          graphError(400, 100, "(#100) Tried accessing nonexisting field (accounts) on node type (Page)")
        )
      const longLived = token.expiresAt !== null && token.expiresAt - token.issuedAt > DAY_MS
      if (parts[1] === "accounts") {
        if (!token.scopes.includes("pages_show_list")) return send(res, 200, list([], query))
        const mine = [...pages.values()].filter((p) => p.business === null && p.roles[token.subject] !== undefined)
        return send(
          res,
          200,
          list(
            mine.map((p) => pageRow(p, token.subject, fieldList, longLived)),
            query
          )
        )
      }
      if (!token.scopes.includes("business_management"))
        return sendError(
          res,
          graphError(403, 200, "(#200) Requires business_management permission to manage the object")
        )
      return send(
        res,
        200,
        list(
          [...businesses.values()]
            .filter((b) => b.members.includes(token.subject))
            .map((b) => ({ id: b.id, name: b.name })),
          query
        )
      )
    }
    if (method === "GET" && parts.length === 2 && parts[1] === "owned_pages" && businesses.has(parts[0]!)) {
      const longLived = token.expiresAt !== null && token.expiresAt - token.issuedAt > DAY_MS
      const owned = [...pages.values()].filter((p) => p.business === parts[0])
      return send(
        res,
        200,
        list(
          owned.map((p) => pageRow(p, token.user, fieldList, longLived)),
          query
        )
      )
    }

    // Facebook Pages
    const page = pages.get(parts[0] ?? "")
    if (page !== undefined && parts.length === 2) {
      const edge = parts[1]
      const pageToken = token.kind === "page" && token.subject === page.id
      if (method === "POST" && !pageToken)
        return sendError(
          res,
          graphError(
            403,
            200,
            "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission"
          )
        )
      const headers = buc(page.id)
      if (method === "POST" && edge === "feed") {
        const message = param("message") ?? ""
        const attached =
          param("attached_media") === undefined
            ? []
            : (JSON.parse(param("attached_media")!) as Array<{ media_fbid: string }>).map((m) => m.media_fbid)
        if (message === "" && param("link") === undefined && attached.length === 0)
          return sendError(res, badParam("(#100) Missing message or attachment."))
        if (attached.some((id) => photos.get(id)?.page !== page.id))
          return sendError(res, badParam("(#100) Invalid media_fbid."))
        if (message !== "" && posts.some((p) => p.owner === page.id && p.kind === "feed" && p.text === message))
          return send(
            res,
            400,
            graphError(400, 506, "Duplicate status message", {
              error_user_title: "Duplicate post",
              error_user_msg:
                "This status update is identical to the last one you posted. Try posting something different, or delete your previous update."
            }).body,
            headers
          )
        const id = `${page.id}_${newId()}`
        posts.push({
          id,
          app: "facebook",
          owner: page.id,
          kind: "feed",
          text: message,
          createdAt: now(),
          link: param("link") ?? null,
          attached,
          container: null,
          replyTo: null,
          mediaType: null,
          children: [],
          cover: null
        })
        if (dropAnswer) return req.socket.destroy()
        return send(res, 200, { id }, headers)
      }
      if (method === "POST" && edge === "photos") {
        const fetched = await fetchMedia(param("url") ?? "")
        if (fetched.status !== 200) return sendError(res, graphError(400, 324, "(#324) Missing or invalid image file"))
        const id = newId()
        photos.set(id, { page: page.id, url: param("url")!, used: false })
        return send(res, 200, { id }, headers)
      }
      if (method === "POST" && edge === "videos") {
        const fileUrl = param("file_url")
        if (fileUrl === undefined)
          return sendError(res, badParam("(#100) file_url, source or fbuploader_video_file_chunk is required."))
        const fetched = await fetchMedia(fileUrl)
        const id = newId()
        videos.set(id, {
          id,
          page: page.id,
          description: param("description") ?? "",
          createdAt: now(),
          pollsLeft: state.videoPolls,
          status: fetched.status === 200 ? "processing" : "error",
          thumbBytes: files.thumb?.size ?? 0,
          reel: false,
          uploadedBytes: fetched.bytes,
          finished: true
        })
        if (dropAnswer) return req.socket.destroy()
        return send(res, 200, { id }, headers)
      }
      if (method === "POST" && edge === "video_reels") {
        const phase = param("upload_phase")
        if (phase === "start") {
          const id = newId()
          videos.set(id, {
            id,
            page: page.id,
            description: "",
            createdAt: now(),
            pollsLeft: state.videoPolls,
            status: "processing",
            thumbBytes: 0,
            reel: true,
            uploadedBytes: null,
            finished: false
          })
          if (dropAnswer) return req.socket.destroy()
          return send(res, 200, { video_id: id, upload_url: `${origin}/video-upload/${versioned[1]}/${id}` }, headers)
        }
        if (phase !== "finish")
          return sendError(res, badParam("(#100) upload_phase must be one of start, transfer, finish."))
        const reel = videos.get(param("video_id") ?? "")
        if (reel === undefined || !reel.reel || reel.page !== page.id)
          return sendError(res, badParam("(#100) Invalid video_id."))
        if (reel.uploadedBytes === null || reel.status === "error")
          return sendError(res, badParam("(#100) The video has not been uploaded."))
        if (reel.finished) return sendError(res, badParam("(#100) This reel was already finished."))
        if (param("video_state") !== "PUBLISHED")
          return sendError(res, badParam("(#100) video_state must be PUBLISHED, DRAFT or SCHEDULED."))
        reel.finished = true
        reel.description = param("description") ?? ""
        if (dropAnswer) return req.socket.destroy()
        return send(res, 200, { success: true }, headers)
      }
      if (method === "GET" && (edge === "published_posts" || edge === "videos")) {
        const rows =
          edge === "videos"
            ? [...videos.values()]
                .filter((v) => v.page === page.id)
                .sort((a, b) => b.createdAt - a.createdAt)
                .map((v) => ({
                  id: v.id,
                  description: v.description,
                  created_time: time(v.createdAt),
                  permalink_url: `/${page.id}/videos/${v.id}/`
                }))
            : posts
                .filter((p) => p.owner === page.id && p.kind === "feed")
                .sort((a, b) => b.createdAt - a.createdAt)
                .map((p) => ({
                  id: p.id,
                  message: p.text,
                  created_time: time(p.createdAt),
                  permalink_url: permalinkOf(p)
                }))
        return send(res, 200, list(rows, query), headers)
      }
    }

    // Instagram users (Facebook Login: a Page token of the linked Page; Instagram Login: the user's token)
    const ig = igUsers.get(parts[0] ?? "")
    if (ig !== undefined && parts.length === 2) {
      if (!actsFor(token, ig.id))
        return sendError(res, graphError(400, 10, "(#10) Application does not have permission for this action"))
      if (method === "POST" && parts[1] === "media") return createContainer(res, "instagram", ig.id, fields)
      if (method === "POST" && parts[1] === "media_publish")
        return publishContainer(res, req, "instagram", ig.id, param("creation_id"), dropAnswer)
      if (method === "GET" && parts[1] === "media")
        return send(
          res,
          200,
          list(
            posts
              .filter((p) => p.owner === ig.id && p.kind === "media")
              .sort((a, b) => b.createdAt - a.createdAt)
              .map((p) => ({ id: p.id, caption: p.text, timestamp: time(p.createdAt), permalink: permalinkOf(p) })),
            query
          )
        )
      // IG User Stories: the stories of the last 24 hours (they are not in /media).
      if (method === "GET" && parts[1] === "stories")
        return send(
          res,
          200,
          list(
            posts
              .filter((p) => p.owner === ig.id && p.kind === "story" && p.createdAt > now() - DAY_MS)
              .sort((a, b) => b.createdAt - a.createdAt)
              .map((p) => ({ id: p.id, timestamp: time(p.createdAt), permalink: permalinkOf(p) })),
            query
          )
        )
      if (method === "GET" && parts[1] === "content_publishing_limit") {
        const used = (publishedPerDay.get(ig.id) ?? []).filter((t) => t > now() - DAY_MS).length
        return send(res, 200, {
          data: [{ quota_usage: used, config: { quota_total: state.instagramDailyCap, quota_duration: 86_400 } }]
        })
      }
    }

    // Threads users
    const th = threadsUsers.get(parts[0] ?? "")
    if (th !== undefined && parts.length === 2) {
      if (token.kind !== "threads-user" || token.subject !== th.id)
        return sendError(res, graphError(400, 10, "(#10) Application does not have permission for this action"))
      if (method === "POST" && parts[1] === "threads") return createContainer(res, "threads", th.id, fields)
      if (method === "POST" && parts[1] === "threads_publish")
        return publishContainer(res, req, "threads", th.id, param("creation_id"), dropAnswer)
      if (method === "GET" && (parts[1] === "threads" || parts[1] === "replies"))
        return send(
          res,
          200,
          list(
            posts
              .filter(
                (p) => p.owner === th.id && p.kind === "thread" && (parts[1] === "replies") === (p.replyTo !== null)
              )
              .sort((a, b) => b.createdAt - a.createdAt)
              .map((p) => ({ id: p.id, text: p.text, timestamp: time(p.createdAt), permalink: permalinkOf(p) })),
            query
          )
        )
      if (method === "GET" && parts[1] === "threads_publishing_limit") {
        const mine = posts.filter((p) => p.owner === th.id && p.kind === "thread" && p.createdAt > now() - DAY_MS)
        return send(res, 200, {
          data: [
            {
              quota_usage: mine.filter((p) => p.replyTo === null).length,
              config: { quota_total: 250, quota_duration: 86_400 },
              reply_quota_usage: mine.filter((p) => p.replyTo !== null).length,
              reply_config: { quota_total: 1000, quota_duration: 86_400 }
            }
          ]
        })
      }
    }

    // Objects: containers, posts, videos, and their comments
    const id = parts[0] ?? ""
    const container = containers.get(id)
    if (method === "GET" && parts.length === 1 && container !== undefined) {
      if (!actsFor(token, container.owner))
        return sendError(res, graphError(400, 10, "(#10) Application does not have permission for this action"))
      pollContainer(container)
      return send(
        res,
        200,
        container.app === "instagram"
          ? {
              status_code: container.status,
              ...(container.error !== null
                ? { status: container.error }
                : {
                    status: `${container.status}: ${container.status === "FINISHED" ? "Media is ready" : "Processing"}`
                  }),
              id: container.id
            }
          : {
              status: container.status,
              ...(container.error !== null ? { error_message: container.error } : {}),
              id: container.id
            }
      )
    }
    const video = videos.get(id)
    if (method === "GET" && parts.length === 1 && video?.reel === true) {
      // A reel is processed and published once its finish arrived; each status read after that is one poll.
      if (video.status === "processing" && video.finished && --video.pollsLeft <= 0) video.status = "ready"
      const phase = (done: boolean, started: boolean) =>
        video.status === "error" ? "error" : done ? "complete" : started ? "in_progress" : "not_started"
      const uploaded = video.uploadedBytes !== null
      return send(res, 200, {
        id: video.id,
        status: {
          video_status: video.status === "processing" && uploaded && !video.finished ? "upload_complete" : video.status,
          uploading_phase: {
            status: video.status === "error" ? "error" : uploaded ? "complete" : "not_started",
            ...(video.status === "error"
              ? { error: { message: "The video file could not be downloaded." } }
              : { bytes_transferred: video.uploadedBytes ?? 0 })
          },
          processing_phase: { status: uploaded ? phase(video.status === "ready", video.finished) : "not_started" },
          publishing_phase: {
            status: uploaded ? phase(video.status === "ready", video.finished) : "not_started",
            ...(video.status === "ready" ? { publish_status: "published", publish_time: Math.floor(now() / 1000) } : {})
          }
        }
      })
    }
    if (method === "GET" && parts.length === 1 && video !== undefined) {
      if (video.status === "processing" && --video.pollsLeft <= 0) video.status = "ready"
      return send(res, 200, {
        id: video.id,
        permalink_url: `/${video.page}/videos/${video.id}/`,
        status: {
          video_status: video.status,
          processing_phase: {
            status: video.status === "ready" ? "complete" : video.status === "error" ? "error" : "in_progress",
            ...(video.status === "error" ? { error: { message: "The video file could not be downloaded." } } : {})
          }
        }
      })
    }
    const post = posts.find((p) => p.id === id)
    // DELETE /{id} (Pages posts, videos and comments with the Page's token; Threads media with the user's):
    // {success: true}. Instagram's API removes nothing. An object not there falls to the 100/33 answer below.
    if (method === "DELETE" && parts.length === 1 && (post !== undefined || video !== undefined)) {
      if (post?.app === "instagram")
        return sendError(
          res,
          graphError(400, 3, "(#3) Application does not have the capability to make this API call.")
        )
      const owner = post?.owner ?? video!.page
      const allowed = post?.app === "threads" ? actsFor(token, owner) : token.kind === "page" && token.subject === owner
      if (!allowed) return sendError(res, graphError(403, 200, "(#200) Permissions error"))
      for (let i = posts.length - 1; i >= 0; i--)
        if (posts[i]!.id === id || (posts[i]!.kind === "comment" && posts[i]!.replyTo === id)) posts.splice(i, 1)
      videos.delete(id)
      if (dropAnswer) return req.socket.destroy()
      return send(res, 200, { success: true })
    }
    // Insights: a Page token's permissions are those of the user token it came from.
    const granted = (t: Token) =>
      t.kind === "page"
        ? ([...tokens.values()].filter((u) => u.kind === "fb-user" && u.subject === t.user).at(-1)?.scopes ?? [])
        : t.scopes
    const noPermission = () =>
      sendError(res, graphError(403, 10, "(#10) Application does not have permission for this action"))
    if (
      method === "GET" &&
      parts.length === 2 &&
      parts[1] === "insights" &&
      post !== undefined &&
      post.app !== "facebook"
    ) {
      const needs =
        post.app === "threads"
          ? "threads_manage_insights"
          : token.kind === "ig-user"
            ? "instagram_business_manage_insights"
            : "instagram_manage_insights"
      if (!actsFor(token, post.owner) || !granted(token).includes(needs)) return noPermission()
      if (insights.get(post.id) === "few-viewers")
        return sendError(res, graphError(400, 10, "(#10) Not enough viewers for the media to show insights"))
      const counts = (insights.get(post.id) ?? {}) as Record<string, number>
      const names = (query.get("metric") ?? "").split(",").filter((n) => n !== "")
      return send(res, 200, {
        data: names.map((name) => ({
          name,
          period: "lifetime",
          values: [{ value: counts[name] ?? 0 }],
          title: name,
          description: "",
          id: `${post.id}/insights/${name}/lifetime`
        }))
      })
    }
    if (method === "GET" && parts.length === 1 && post !== undefined && /insights\.metric\(/.test(fieldList)) {
      if (token.kind !== "page" || token.subject !== post.owner || !granted(token).includes("read_insights"))
        return sendError(res, graphError(400, 10, "(#10) This endpoint requires the 'read_insights' permission."))
      const counts = (insights.get(post.id) ?? {}) as Record<string, number>
      const names = /insights\.metric\(([^)]*)\)/.exec(fieldList)![1]!.split(",")
      return send(res, 200, {
        id: post.id,
        shares: { count: counts.shares ?? 0 },
        comments: { data: [], summary: { order: "ranked", total_count: counts.comments ?? 0, can_comment: true } },
        insights: {
          data: names.map((name) => ({
            name,
            period: "lifetime",
            values: [{ value: counts[name] ?? 0 }],
            id: `${post.id}/insights/${name}/lifetime`
          }))
        }
      })
    }
    if (method === "GET" && parts.length === 1 && post !== undefined)
      return send(res, 200, { id: post.id, permalink: permalinkOf(post), permalink_url: permalinkOf(post) })
    if (parts.length === 2 && parts[1] === "comments" && (post !== undefined || video !== undefined)) {
      const owner = post?.owner ?? video!.page
      const allowed =
        post?.app === "instagram" ? actsFor(token, owner) : token.kind === "page" && token.subject === owner
      if (!allowed) return sendError(res, graphError(403, 200, "(#200) Permissions error"))
      if (method === "POST" && post?.kind === "story")
        return sendError(res, badParam("(#100) Comments are not supported on stories."))
      if (method === "POST") {
        const message = param("message") ?? ""
        if (message === "") return sendError(res, badParam("(#100) The parameter message is required."))
        const commentId = post?.app === "instagram" ? newId() : `${id}_${newId()}`
        posts.push({
          id: commentId,
          app: post?.app ?? "facebook",
          owner,
          kind: "comment",
          text: message,
          createdAt: now(),
          link: null,
          attached: [],
          container: null,
          replyTo: id,
          mediaType: null,
          children: [],
          cover: null
        })
        if (dropAnswer) return req.socket.destroy()
        return send(res, 200, { id: commentId })
      }
      const rows = posts
        .filter((p) => p.kind === "comment" && p.replyTo === id)
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((p) =>
          post?.app === "instagram"
            ? { id: p.id, text: p.text, timestamp: time(p.createdAt) }
            : { id: p.id, message: p.text, created_time: time(p.createdAt) }
        )
      return send(res, 200, list(rows, query))
    }
    sendError(
      res,
      graphError(
        400,
        100,
        `(#100) Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        { error_subcode: 33 }
      )
    )
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    send(res, 500, { error: { message: String(e), type: "FacebookApiException", code: 1, is_transient: true } })
  )

  return {
    origin,
    apps,
    /** Sets a post's insights under Meta's metric names (and comments, shares for a Page post). */
    setInsights: (id: string, counts: Record<string, number> | "few-viewers") => void insights.set(id, counts),
    /** The variables that point Herald at this fake (HERALD_PUBLIC_URL aside). */
    env: (version = "v26.0"): Record<string, string> => ({
      META_GRAPH_VERSION: version,
      FACEBOOK_CLIENT_ID: apps.facebook.clientId,
      FACEBOOK_CLIENT_SECRET: apps.facebook.clientSecret,
      FACEBOOK_AUTHORIZE_URL: `${origin}/${version}/dialog/oauth`,
      FACEBOOK_TOKEN_URL: `${origin}/${version}/oauth/access_token`,
      FACEBOOK_API_URL: origin,
      INSTAGRAM_CLIENT_ID: apps.instagram.clientId,
      INSTAGRAM_CLIENT_SECRET: apps.instagram.clientSecret,
      INSTAGRAM_AUTHORIZE_URL: `${origin}/oauth/authorize`,
      INSTAGRAM_TOKEN_URL: `${origin}/oauth/access_token`,
      INSTAGRAM_API_URL: origin,
      THREADS_CLIENT_ID: apps.threads.clientId,
      THREADS_CLIENT_SECRET: apps.threads.clientSecret,
      THREADS_AUTHORIZE_URL: `${origin}/oauth/authorize`,
      THREADS_TOKEN_URL: `${origin}/oauth/access_token`,
      THREADS_API_URL: origin
    }),
    state,
    pages: pages as ReadonlyMap<string, FakePage>,
    igUsers: igUsers as ReadonlyMap<string, FakeIgUser>,
    posts,
    containers: containers as ReadonlyMap<string, Readonly<Container>>,
    videos: videos as ReadonlyMap<string, Readonly<Video>>,
    fetches,
    requests: log.requests,
    /** The appsecret_proof Meta expects with `token` on `app`'s calls. */
    proofOf: (app: App, token: string) => createHmac("sha256", apps[app].clientSecret).update(token).digest("hex"),
    /** The token's kind and subject, or undefined when the fake never issued it. */
    tokenInfo: (t: string) => {
      const found = tokens.get(t)
      return found === undefined ? undefined : { kind: found.kind, subject: found.subject, expiresAt: found.expiresAt }
    },
    /** Every token the fake issued, to look for them where they must not be. */
    issuedTokens: () => [...tokens.keys()],
    /** The next request to `method path` gets this answer instead (or has its answer lost). */
    script: log.script,
    calls: log.calls,
    /** The person's grant ends on Meta's side (password changed, app removed): every token of the user, and the Page tokens from them, stop working. */
    revoke: (user: string) => {
      for (const [t, info] of tokens) if (info.user === user || info.subject === user) tokens.delete(t)
    },
    close
  }
}

export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>
