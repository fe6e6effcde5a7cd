import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local LinkedIn: the parts of its OAuth 2.0 and versioned REST API (Posts, Images, Videos, Social
 * Actions, organization ACLs, OpenID userinfo) that Herald uses, as LinkedIn documents them
 * (docs/networks/linkedin.md). It checks what LinkedIn checks (client_secret_post, the
 * LinkedIn-Version and Rest.li headers, tokens that expire or are revoked, who may post as which
 * page, uploads and their ETags, video processing, poll shapes, duplicates), answers in LinkedIn's
 * shapes (201 with x-restli-id, 422 DUPLICATE_POST naming the post, 401 with serviceErrorCode),
 * records every request, and lets a test script failures.
 */

export interface FakeMember {
  readonly sub: string
  readonly name: string
  readonly picture: string
  /** Pages and the member's role on each. */
  readonly acls: ReadonlyArray<{ readonly organization: string; readonly role: string; readonly state: string }>
}

export interface FakePost {
  readonly urn: string
  readonly author: string
  /** As sent (little text). */
  readonly commentary: string
  /** As LinkedIn shows it: escapes undone, hashtag templates as #tags, cut at an unescaped reserved character. */
  readonly rendered: string
  readonly hashtags: ReadonlyArray<string>
  readonly content: any
  readonly createdAt: number
}

export interface FakeComment {
  readonly urn: string
  readonly post: string
  readonly actor: string
  readonly text: string
}

interface FakeVideo {
  readonly urn: string
  readonly owner: string
  readonly size: number
  readonly parts: ReadonlyArray<{ firstByte: number; lastByte: number }>
  readonly received: Map<number, { bytes: number; etag: string }>
  thumbnail: number | null
  status: "WAITING_UPLOAD" | "PROCESSING" | "AVAILABLE" | "PROCESSING_FAILED"
  pollsLeft: number
}

const RESERVED = new Set(["\\", "|", "{", "}", "@", "[", "]", "(", ")", "<", ">", "#", "*", "_", "~"])

/** How LinkedIn shows little text: `\x` is x, `{hashtag|\#|tag}` is #tag, and an unescaped reserved character ends the text. */
export const renderLittleText = (text: string): { rendered: string; hashtags: Array<string> } => {
  let out = ""
  const hashtags: Array<string> = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === "\\" && i + 1 < text.length) {
      out += text[++i]
      continue
    }
    if (ch === "{") {
      const template = /^\{hashtag\|\\#\|((?:\\.|[^}\\])+)\}/.exec(text.slice(i))
      if (template !== null) {
        const tag = template[1].replace(/\\(.)/g, "$1")
        hashtags.push(tag)
        out += `#${tag}`
        i += template[0].length - 1
        continue
      }
    }
    if (RESERVED.has(ch)) break
    out += ch
  }
  return { rendered: out, hashtags }
}

const base64url = (bytes: Buffer) => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
const token = (prefix: string) => `${prefix}_${base64url(randomBytes(24))}`
const problem = (status: number, message: string, extra: Record<string, unknown> = {}) => ({
  status,
  message,
  ...extra
})

const DURATIONS = new Set(["ONE_DAY", "THREE_DAYS", "SEVEN_DAYS", "FOURTEEN_DAYS"])

export const startFakeLinkedIn = async (options: { clientId?: string; clientSecret?: string } = {}) => {
  const clientId = options.clientId ?? "78linkedinclient"
  const clientSecret = options.clientSecret ?? "WPL_AP1.secret+with/odd=chars"
  const members = new Map<string, FakeMember>([
    [
      "m-alice",
      {
        sub: "m-alice",
        name: "Alice Example",
        picture: "https://media.licdn.com/dms/image/alice.jpg",
        acls: [
          { organization: "urn:li:organization:2414183", role: "ADMINISTRATOR", state: "APPROVED" },
          { organization: "urn:li:organization:5515715", role: "ANALYST", state: "APPROVED" }
        ]
      }
    ],
    ["m-bob", { sub: "m-bob", name: "Bob Example", picture: "https://media.licdn.com/dms/image/bob.jpg", acls: [] }]
  ])
  const organizations = new Map<string, { id: number; localizedName: string; vanityName: string }>([
    ["2414183", { id: 2414183, localizedName: "Herald Example Corp", vanityName: "herald-example" }],
    ["5515715", { id: 5515715, localizedName: "Analytics Only Inc", vanityName: "analytics-only" }]
  ])
  const codes = new Map<string, { redirectUri: string; memberId: string; scope: string }>()
  const accessTokens = new Map<
    string,
    { memberId: string; expiresAt: number; scope: ReadonlyArray<string>; revoked: boolean }
  >()
  const refreshTokens = new Map<string, { memberId: string; expiresAt: number; scope: ReadonlyArray<string> }>()
  const posts: Array<FakePost> = []
  const comments: Array<FakeComment> = []
  const images = new Map<string, { owner: string; bytes: number | null }>()
  const videos = new Map<string, FakeVideo>()
  const log = requestLog()
  let sequence = 0

  /** Posts' figures as LinkedIn counts them (tests set them), by post URN. */
  const figures = new Map<string, Record<string, number>>()
  const state = {
    /** Now, for token expiry and post times (epoch ms); the real clock unless a test sets it. */
    clock: null as number | null,
    /** Added to the real clock when `clock` is not set. */
    offsetMs: 0,
    /** The member who approves on the authorize page. */
    authorizeAs: "m-alice",
    /** Whether the app is one LinkedIn gives refresh tokens (approved partners). */
    refreshTokens: true,
    /** LinkedIn-Version values LinkedIn still serves. */
    activeVersions: ["202607"] as Array<string>,
    /** Bytes per video upload part (LinkedIn: 4 MiB). */
    videoPartBytes: 4 * 1024 * 1024,
    /** Status reads a video takes: PROCESSING until the last, which says AVAILABLE. */
    videoPolls: 3,
    /** Processing of the next video fails. */
    failProcessing: false
  }
  const now = () => state.clock ?? Date.now() + state.offsetMs
  /** LinkedIn's ids carry their creation time in their top bits (snowflake). */
  const newId = () => String((BigInt(now()) << 22n) | BigInt(++sequence % 4_194_304))
  const everIssued: Array<string> = []

  const send = sendJson

  const issue = (
    memberId: string,
    scope: ReadonlyArray<string>,
    refresh: { token: string; expiresAt: number } | null
  ) => {
    const access = token("AQV")
    everIssued.push(access)
    accessTokens.set(access, { memberId, expiresAt: now() + 5_184_000 * 1000, scope, revoked: false })
    // LinkedIn sends no token_type; with openid it sends an id_token.
    const answer: Record<string, unknown> = { access_token: access, expires_in: 5_184_000, scope: scope.join(",") }
    if (scope.includes("openid"))
      answer.id_token = `${base64url(Buffer.from('{"alg":"RS256","kid":"k"}'))}.${base64url(Buffer.from(JSON.stringify({ iss: "https://www.linkedin.com/oauth", aud: clientId, sub: memberId })))}.c2ln`
    if (state.refreshTokens) {
      const r = refresh ?? { token: token("AQX"), expiresAt: now() + 31_536_000 * 1000 }
      if (refresh === null) {
        refreshTokens.set(r.token, { memberId, expiresAt: r.expiresAt, scope })
        everIssued.push(r.token)
      }
      answer.refresh_token = r.token
      answer.refresh_token_expires_in = Math.floor((r.expiresAt - now()) / 1000)
    }
    return answer
  }

  /** The member a bearer token acts for, or the 401 LinkedIn answers (already sent). */
  const bearer = (req: IncomingMessage, res: ServerResponse) => {
    const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1])
    if (access === undefined)
      return void send(
        res,
        401,
        problem(401, "Invalid access token", { serviceErrorCode: 65600, code: "INVALID_ACCESS_TOKEN" })
      )
    if (access.revoked)
      return void send(
        res,
        401,
        problem(401, "The token used in the request has been revoked by the user", {
          serviceErrorCode: 65601,
          code: "REVOKED_ACCESS_TOKEN"
        })
      )
    if (access.expiresAt <= now())
      return void send(
        res,
        401,
        problem(401, "The token used in the request has expired", {
          serviceErrorCode: 65602,
          code: "EXPIRED_ACCESS_TOKEN"
        })
      )
    return access
  }

  /** Whether the member may act as `author` with these scopes. */
  const mayActAs = (access: { memberId: string; scope: ReadonlyArray<string> }, author: unknown, write: boolean) => {
    if (author === `urn:li:person:${access.memberId}`) return !write || access.scope.includes("w_member_social")
    const acl = members.get(access.memberId)?.acls.find((a) => a.organization === author && a.state === "APPROVED")
    if (acl === undefined) return false
    return write
      ? access.scope.includes("w_organization_social") && ["ADMINISTRATOR", "CONTENT_ADMINISTRATOR"].includes(acl.role)
      : access.scope.includes("r_organization_social")
  }
  const forbidden = (res: ServerResponse, what: string) =>
    send(
      res,
      403,
      problem(403, `Not enough permissions to access: ${what}`, { serviceErrorCode: 100, code: "ACCESS_DENIED" })
    )
  const invalid = (res: ServerResponse, message: string) =>
    send(res, 400, problem(400, message, { errorDetailType: "com.linkedin.common.error.BadRequest" }))

  const contentProblem = (author: string, content: any): string | null => {
    if (content === undefined) return null
    const keys = Object.keys(content ?? {})
    if (keys.length !== 1) return "content must have exactly one of media, multiImage, poll, article"
    if (content.poll !== undefined) {
      const p = content.poll
      if (typeof p.question !== "string" || p.question.length === 0 || p.question.length > 140)
        return "/content/poll/question must be 1-140 characters"
      if (
        !Array.isArray(p.options) ||
        p.options.length < 2 ||
        p.options.length > 4 ||
        p.options.some((o: any) => typeof o?.text !== "string" || o.text.length > 30)
      )
        return "/content/poll/options must be 2-4 options of at most 30 characters"
      if (!DURATIONS.has(p.settings?.duration)) return "/content/poll/settings/duration is invalid"
      return null
    }
    const usableImage = (id: string) => {
      const i = images.get(id)
      return i !== undefined && i.owner === author && i.bytes !== null
    }
    if (content.multiImage !== undefined) {
      const list = content.multiImage.images
      if (!Array.isArray(list) || list.length < 2 || list.length > 20)
        return "/content/multiImage/images must have 2-20 images"
      return list.every((i: any) => usableImage(i?.id))
        ? null
        : "/content/multiImage/images contains an image that is not uploaded"
    }
    if (content.media !== undefined) {
      const id = content.media.id
      if (typeof id === "string" && id.startsWith("urn:li:image:"))
        return usableImage(id) ? null : "/content/media/id is not an uploaded image"
      const video = videos.get(id)
      if (video === undefined || video.owner !== author) return "/content/media/id is not a video of the author"
      return video.status === "AVAILABLE" ? null : `/content/media/id: the video is ${video.status}`
    }
    return `unsupported content ${keys[0]}`
  }

  const createPost = (
    res: ServerResponse,
    req: IncomingMessage,
    access: { memberId: string; scope: ReadonlyArray<string> },
    body: any,
    dropAnswer: boolean
  ) => {
    if (!mayActAs(access, body?.author, true))
      return forbidden(res, `partnerApiPostsExternal.CREATE.20260701 for ${body?.author}`)
    if (
      typeof body?.commentary !== "string" ||
      body.visibility !== "PUBLIC" ||
      body.lifecycleState !== "PUBLISHED" ||
      body.distribution?.feedDistribution !== "MAIN_FEED"
    )
      return send(
        res,
        422,
        problem(422, "ERROR :: /commentary or /visibility or /distribution or /lifecycleState is missing or invalid", {
          errorDetails: {
            inputErrors: [{ description: "Missing or invalid field", input: {}, code: "FIELD_VALUE_INVALID" }]
          }
        })
      )
    if (body.commentary.length > 3000 * 2)
      return send(res, 422, problem(422, "ERROR :: /commentary :: text is too long"))
    const issue = contentProblem(body.author, body.content)
    if (issue !== null)
      return send(
        res,
        422,
        problem(422, `ERROR :: ${issue}`, {
          errorDetails: { inputErrors: [{ description: issue, code: "INVALID_CONTENT" }] }
        })
      )
    const duplicate = posts.find(
      (p) =>
        p.author === body.author &&
        p.commentary === body.commentary &&
        JSON.stringify(p.content ?? null) === JSON.stringify(body.content ?? null)
    )
    if (duplicate !== undefined)
      return send(res, 422, {
        message: `ERROR :: /commentary :: Content is a duplicate of ${duplicate.urn}`,
        errorDetails: {
          inputErrors: [
            {
              description: "Duplicate post is detected",
              input: { inputPath: { fieldPath: "/commentary" } },
              code: "DUPLICATE_POST"
            }
          ]
        },
        status: 422
      })
    const { rendered, hashtags } = renderLittleText(body.commentary)
    const post: FakePost = {
      urn: `urn:li:share:${newId()}`,
      author: body.author,
      commentary: body.commentary,
      rendered,
      hashtags,
      content: body.content,
      createdAt: now()
    }
    posts.push(post)
    if (dropAnswer) return req.socket.destroy()
    send(res, 201, undefined, { "x-restli-id": post.urn, "x-linkedin-id": post.urn })
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { parsed, raw } = await readRequestBody(req)
    const query = url.searchParams
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body, { ...reply.headers })
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (route === "GET /oauth/v2/authorization") {
      const redirectUri = query.get("redirect_uri") ?? ""
      if (query.get("client_id") !== clientId || query.get("response_type") !== "code")
        return send(res, 400, {
          error: "invalid_request",
          error_description: 'A required parameter "client_id" is missing or invalid'
        })
      const back = new URL(redirectUri)
      back.searchParams.set("state", query.get("state") ?? "")
      const code = token("code")
      codes.set(code, { redirectUri, memberId: state.authorizeAs, scope: query.get("scope") ?? "" })
      back.searchParams.set("code", code)
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /oauth/v2/accessToken") {
      if (body?.client_id !== clientId || body?.client_secret !== clientSecret)
        return send(res, 401, { error: "invalid_client", error_description: "Client authentication failed" })
      if (body.grant_type === "authorization_code") {
        const grant = codes.get(body.code)
        codes.delete(body.code)
        if (grant === undefined || grant.redirectUri !== body.redirect_uri)
          return send(res, 400, {
            error: "invalid_request",
            error_description:
              "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired."
          })
        return send(
          res,
          200,
          issue(
            grant.memberId,
            grant.scope.split(" ").filter((s) => s !== ""),
            null
          )
        )
      }
      if (body.grant_type === "refresh_token") {
        const refresh = refreshTokens.get(body.refresh_token)
        if (refresh === undefined || refresh.expiresAt <= now())
          return send(res, 400, {
            error: "invalid_request",
            error_description: "The provided authorization grant or refresh token is invalid, expired or revoked."
          })
        // LinkedIn answers with the same refresh token, its end unchanged.
        return send(
          res,
          200,
          issue(refresh.memberId, refresh.scope, { token: body.refresh_token, expiresAt: refresh.expiresAt })
        )
      }
      return send(res, 400, { error: "unsupported_grant_type", error_description: "grant_type is not supported" })
    }

    const upload = /^\/dms-uploads\/(image|video|thumbnail)\/([^/]+)(?:\/part\/(\d+))?$/.exec(url.pathname)
    if (req.method === "PUT" && upload !== null) {
      const [, kind, id, part] = upload
      if (kind === "image") {
        const access = bearer(req, res)
        if (access === undefined) return
        const image = images.get(`urn:li:image:${id}`)
        if (image === undefined) return send(res, 404, problem(404, "Upload not found"))
        image.bytes = raw.length
        return send(res, 201)
      }
      const video = videos.get(`urn:li:video:${id}`)
      if (video === undefined) return send(res, 404, problem(404, "Upload not found"))
      if (kind === "thumbnail") {
        video.thumbnail = raw.length
        return send(res, 201)
      }
      const index = Number(part)
      const range = video.parts[index]
      if (range === undefined || raw.length !== range.lastByte - range.firstByte + 1)
        return send(
          res,
          400,
          problem(
            400,
            `Part ${part} must be ${range ? range.lastByte - range.firstByte + 1 : 0} bytes, got ${raw.length}`
          )
        )
      const etag = `/ambry-video/${createHash("md5").update(raw).digest("hex")}-${index}`
      video.received.set(index, { bytes: raw.length, etag })
      return send(res, 200, undefined, { etag })
    }

    if (url.pathname.startsWith("/rest/") || url.pathname.startsWith("/v2/")) {
      const access = bearer(req, res)
      if (access === undefined) return
      if (url.pathname.startsWith("/rest/")) {
        const version = String(req.headers["linkedin-version"] ?? "")
        if (!state.activeVersions.includes(version))
          return send(
            res,
            426,
            problem(426, `Requested version ${version} is not active`, { code: "NONEXISTENT_VERSION" })
          )
        if (req.headers["x-restli-protocol-version"] !== "2.0.0")
          return invalid(res, "X-Restli-Protocol-Version 2.0.0 is required for URNs in paths and queries")
      }
      if (route === "GET /v2/userinfo") {
        if (!access.scope.includes("openid")) return forbidden(res, "userinfo")
        const m = members.get(access.memberId)!
        const [given, family] = m.name.split(" ")
        return send(res, 200, {
          sub: m.sub,
          email_verified: true,
          name: m.name,
          locale: { country: "US", language: "en" },
          given_name: given,
          family_name: family,
          picture: m.picture
        })
      }
      if (route === "GET /rest/organizationAcls") {
        if (query.get("q") !== "roleAssignee") return invalid(res, "q must be roleAssignee")
        if (!access.scope.includes("rw_organization_admin"))
          return forbidden(res, "organizationAcls.FINDER-roleAssignee")
        const all = members
          .get(access.memberId)!
          .acls.filter((a) => query.get("state") === null || a.state === query.get("state"))
          .filter((a) => query.get("role") === null || a.role === query.get("role"))
        const start = Number(query.get("start") ?? "0")
        const count = Number(query.get("count") ?? "10")
        const elements = all.slice(start, start + count).map((a) => ({
          roleAssignee: `urn:li:person:${access.memberId}`,
          state: a.state,
          role: a.role,
          organization: a.organization
        }))
        return send(res, 200, { paging: { count, start, total: all.length, links: [] }, elements })
      }
      const org = /^\/rest\/organizations\/(\d+)$/.exec(url.pathname)
      if (req.method === "GET" && org !== null) {
        const found = organizations.get(org[1])
        return found === undefined
          ? send(res, 404, problem(404, "Organization not found"))
          : send(res, 200, { ...found, localizedWebsite: "https://example.org" })
      }
      if (route === "POST /rest/images" && query.get("action") === "initializeUpload") {
        const owner = body?.initializeUploadRequest?.owner
        if (!mayActAs(access, owner, true)) return forbidden(res, `images.ACTION-initializeUpload for ${owner}`)
        const id = `D4E${newId()}`
        images.set(`urn:li:image:${id}`, { owner, bytes: null })
        return send(res, 200, {
          value: {
            uploadUrlExpiresAt: now() + 86_400_000,
            uploadUrl: `${origin}/dms-uploads/image/${id}`,
            image: `urn:li:image:${id}`
          }
        })
      }
      if (route === "POST /rest/videos" && query.get("action") === "initializeUpload") {
        const request = body?.initializeUploadRequest
        if (!mayActAs(access, request?.owner, true))
          return forbidden(res, `videos.ACTION-initializeUpload for ${request?.owner}`)
        if (typeof request?.fileSizeBytes !== "number" || request.fileSizeBytes <= 0)
          return invalid(res, "fileSizeBytes is required")
        const id = `C5F${newId()}`
        const parts: Array<{ firstByte: number; lastByte: number }> = []
        for (let first = 0; first < request.fileSizeBytes; first += state.videoPartBytes)
          parts.push({ firstByte: first, lastByte: Math.min(first + state.videoPartBytes, request.fileSizeBytes) - 1 })
        videos.set(`urn:li:video:${id}`, {
          urn: `urn:li:video:${id}`,
          owner: request.owner,
          size: request.fileSizeBytes,
          parts,
          received: new Map(),
          thumbnail: null,
          status: "WAITING_UPLOAD",
          pollsLeft: state.videoPolls
        })
        return send(res, 200, {
          value: {
            uploadUrlsExpireAt: now() + 86_400_000,
            video: `urn:li:video:${id}`,
            uploadInstructions: parts.map((p, i) => ({
              uploadUrl: `${origin}/dms-uploads/video/${id}/part/${i}`,
              firstByte: p.firstByte,
              lastByte: p.lastByte
            })),
            uploadToken: "",
            ...(request.uploadThumbnail === true ? { thumbnailUploadUrl: `${origin}/dms-uploads/thumbnail/${id}` } : {})
          }
        })
      }
      if (route === "POST /rest/videos" && query.get("action") === "finalizeUpload") {
        const request = body?.finalizeUploadRequest
        const video = videos.get(request?.video)
        if (video === undefined || !mayActAs(access, video.owner, true)) return invalid(res, "Unknown video")
        const expected = video.parts.map((_, i) => video.received.get(i)?.etag)
        if (
          expected.some((e) => e === undefined) ||
          JSON.stringify(expected) !== JSON.stringify(request.uploadedPartIds)
        )
          return invalid(res, "uploadedPartIds do not match the uploaded parts")
        video.status = "PROCESSING"
        return send(res, 200, {})
      }
      const videoRead = /^\/rest\/videos\/(.+)$/.exec(url.pathname)
      if (req.method === "GET" && videoRead !== null) {
        const video = videos.get(decodeURIComponent(videoRead[1]))
        if (
          video === undefined ||
          (!mayActAs(access, video.owner, false) && video.owner !== `urn:li:person:${access.memberId}`)
        )
          return send(res, 404, problem(404, "Video not found"))
        if (video.status === "PROCESSING") {
          video.pollsLeft--
          if (state.failProcessing) {
            video.status = "PROCESSING_FAILED"
            state.failProcessing = false
          } else if (video.pollsLeft <= 0) video.status = "AVAILABLE"
        }
        return send(res, 200, {
          id: video.urn,
          owner: video.owner,
          status: video.status,
          aspectRatioWidth: 16,
          aspectRatioHeight: 9,
          duration: 5000,
          ...(video.status === "PROCESSING_FAILED" ? { processingFailureReason: "Video format is not supported" } : {})
        })
      }
      if (route === "GET /rest/memberCreatorPostAnalytics") {
        if (!access.scope.includes("r_member_postAnalytics"))
          return forbidden(res, "memberCreatorPostAnalytics.FINDER-entity")
        const entity = /^\((share|ugc):(urn:li:(?:share|ugcPost):\d+)\)$/.exec(query.get("entity") ?? "")
        const type = query.get("queryType") ?? ""
        if (
          query.get("q") !== "entity" ||
          entity === null ||
          !["IMPRESSION", "MEMBERS_REACHED", "RESHARE", "REACTION", "COMMENT"].includes(type)
        )
          return invalid(
            res,
            "q=entity, entity=(share:urn) or (ugc:urn), queryType in IMPRESSION, MEMBERS_REACHED, RESHARE, REACTION, COMMENT"
          )
        const post = posts.find((p) => p.urn === entity[2])
        if (post === undefined || post.author !== `urn:li:person:${access.memberId}`)
          return send(res, 404, problem(404, `Post ${entity[2]} not found`))
        return send(res, 200, {
          paging: { start: 0, count: 10, links: [] },
          elements: [
            {
              count: figures.get(post.urn)?.[type] ?? 0,
              metricType: { "com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1": type }
            }
          ]
        })
      }
      if (route === "GET /rest/organizationalEntityShareStatistics") {
        const org = query.get("organizationalEntity") ?? ""
        if (query.get("q") !== "organizationalEntity" || !org.startsWith("urn:li:organization:"))
          return invalid(res, "q=organizationalEntity with an organization URN")
        if (!mayActAs(access, org, false))
          return forbidden(res, "organizationalEntityShareStatistics.FINDER-organizationalEntity")
        const listed = (name: string) =>
          /^List\((.*)\)$/
            .exec(query.get(name) ?? "")?.[1]
            ?.split(",")
            .filter((u) => u !== "") ?? []
        const elements = [...listed("shares"), ...listed("ugcPosts")].flatMap((id) => {
          const post = posts.find((p) => p.urn === id && p.author === org)
          if (post === undefined) return []
          const counts = figures.get(id) ?? {}
          const stat = (name: string) => counts[name] ?? 0
          return [
            {
              organizationalEntity: org,
              [id.startsWith("urn:li:ugcPost:") ? "ugcPost" : "share"]: id,
              totalShareStatistics: {
                impressionCount: stat("impressionCount"),
                uniqueImpressionsCount: stat("uniqueImpressionsCount"),
                clickCount: stat("clickCount"),
                likeCount: stat("likeCount"),
                commentCount: stat("commentCount"),
                shareCount: stat("shareCount"),
                engagement: 0
              }
            }
          ]
        })
        return send(res, 200, { paging: { start: 0, count: elements.length, links: [] }, elements })
      }
      if (route === "POST /rest/posts") return createPost(res, req, access, body, reply?.dropAnswer === true)
      if (route === "GET /rest/posts") {
        if (query.get("q") !== "author" || req.headers["x-restli-method"] !== "FINDER")
          return invalid(res, "q=author with X-RestLi-Method: FINDER")
        const author = query.get("author") ?? ""
        if (!author.startsWith("urn:li:organization:") || !mayActAs(access, author, false))
          return forbidden(res, `partnerApiPostsExternal.FINDER-author for ${author}`)
        const mine = posts
          .filter((p) => p.author === author)
          .sort((a, b) => b.createdAt - a.createdAt)
          .slice(0, Number(query.get("count") ?? "10"))
        return send(res, 200, {
          paging: { start: 0, count: mine.length, links: [] },
          elements: mine.map((p) => ({
            id: p.urn,
            author: p.author,
            commentary: p.commentary,
            createdAt: p.createdAt,
            lastModifiedAt: p.createdAt,
            publishedAt: p.createdAt,
            visibility: "PUBLIC",
            lifecycleState: "PUBLISHED",
            ...(p.content === undefined ? {} : { content: p.content })
          }))
        })
      }
      // DELETE /rest/posts/{encoded urn} (Posts API, X-RestLi-Method: DELETE): 204; the post's comments go with it.
      const deleting = /^\/rest\/posts\/([^/]+)$/.exec(url.pathname)
      if (req.method === "DELETE" && deleting !== null) {
        const postUrn = decodeURIComponent(deleting[1])
        const at = posts.findIndex((p) => p.urn === postUrn)
        if (at === -1) return send(res, 404, problem(404, `Post ${postUrn} not found`))
        if (!mayActAs(access, posts[at]!.author, true))
          return forbidden(res, `partnerApiPostsExternal.DELETE for ${postUrn}`)
        posts.splice(at, 1)
        for (let i = comments.length - 1; i >= 0; i--) if (comments[i]!.post === postUrn) comments.splice(i, 1)
        if (reply?.dropAnswer === true) return req.socket.destroy()
        res.writeHead(204)
        return res.end()
      }
      const social = /^\/rest\/socialActions\/([^/]+)\/comments$/.exec(url.pathname)
      if (social !== null) {
        const postUrn = decodeURIComponent(social[1])
        const post = posts.find((p) => p.urn === postUrn)
        if (post === undefined) return send(res, 404, problem(404, `Activity ${postUrn} not found`))
        if (req.method === "POST") {
          if (!mayActAs(access, body?.actor, true)) return forbidden(res, `comments.CREATE for ${body?.actor}`)
          if (body?.object !== postUrn || typeof body?.message?.text !== "string" || body.message.text === "")
            return invalid(res, "actor, object and message.text are required")
          const urn = `urn:li:comment:(urn:li:activity:${post.urn.split(":").at(-1)},${newId()})`
          comments.push({ urn, post: postUrn, actor: body.actor, text: body.message.text })
          if (reply?.dropAnswer === true) return req.socket.destroy()
          return send(
            res,
            201,
            {
              actor: body.actor,
              object: postUrn,
              message: body.message,
              id: urn.split(",")[1].replace(")", ""),
              $URN: urn
            },
            { "x-restli-id": urn }
          )
        }
        if (req.method === "GET") {
          if (!post.author.startsWith("urn:li:organization:") || !mayActAs(access, post.author, false))
            return forbidden(res, "comments.FINDER")
          const list = comments.filter((c) => c.post === postUrn)
          return send(res, 200, {
            paging: { start: 0, count: list.length },
            elements: list.map((c) => ({
              actor: c.actor,
              object: c.post,
              message: { text: c.text },
              id: c.urn.split(",")[1].replace(")", ""),
              $URN: c.urn
            }))
          })
        }
      }
    }
    send(res, 404, problem(404, `No route for ${route}`))
  }

  const { origin, close } = await listenLocally(handle, (res, e) => send(res, 500, problem(500, String(e))))

  return {
    origin,
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/oauth/v2/authorization`,
    tokenUrl: `${origin}/oauth/v2/accessToken`,
    state,
    /** The token's grant gains `scope` (LinkedIn approved the app for it). */
    grantScope: (token: string, scope: string) => {
      const access = accessTokens.get(token)!
      accessTokens.set(token, { ...access, scope: [...access.scope, scope] })
    },
    /** Sets a post's figures: member query types (IMPRESSION, REACTION...) and page statistics (impressionCount...). */
    setFigures: (urn: string, counts: Record<string, number>) => void figures.set(urn, counts),
    members,
    posts,
    comments,
    images: images as ReadonlyMap<string, { readonly owner: string; readonly bytes: number | null }>,
    videos: videos as ReadonlyMap<
      string,
      {
        readonly size: number
        readonly thumbnail: number | null
        readonly status: string
        readonly parts: ReadonlyArray<unknown>
      }
    >,
    requests: log.requests,
    /** The next request to `method path` gets this answer instead (or has its answer lost). */
    script: log.script,
    calls: log.calls,
    /** The member revokes Herald: every token answers 65601, refresh tokens stop working. */
    revoke: (memberId: string) => {
      for (const a of accessTokens.values()) if (a.memberId === memberId) a.revoked = true
      for (const [t, r] of refreshTokens) if (r.memberId === memberId) refreshTokens.delete(t)
    },
    /** The member's access tokens end now (the refresh token still works). */
    expireAccess: (memberId: string) => {
      for (const a of accessTokens.values()) if (a.memberId === memberId) a.expiresAt = now()
    },
    issuedTokens: () => [...everIssued],
    close
  }
}

export type FakeLinkedIn = Awaited<ReturnType<typeof startFakeLinkedIn>>
