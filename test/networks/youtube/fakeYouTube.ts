import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local YouTube: Google's OAuth 2.0 endpoints and the parts of the YouTube Data API v3 Herald uses
 * (channels.list mine, resumable videos.insert with its session URI, 308 and Range, probes with
 * `bytes *\/total`, thumbnails.set, videos.list status and processingDetails, commentThreads), as
 * Google documents them (docs/networks/youtube.md). It checks what Google checks (PKCE,
 * client_secret_post, offline access, chunk sizes in 256 KiB multiples and offsets that follow on,
 * titles, thumbnail size and channel verification), answers in Google's error shape, records every
 * request, and lets a test script failures, lose answers and stall an upload mid-way.
 */

export interface FakeVideo {
  readonly id: string
  readonly channel: string
  readonly metadata: any
  readonly bytes: number
  /** SHA-256 of the bytes received, to compare with the upload. */
  readonly sha256: string
  thumbnail: { readonly bytes: number; readonly type: string } | null
  uploadStatus: "uploaded" | "processed" | "rejected" | "failed"
  pollsLeft: number
  rejectionReason?: string
}

interface Session {
  readonly id: string
  readonly channel: string
  readonly total: number
  readonly type: string
  readonly metadata: any
  readonly hash: ReturnType<typeof createHash>
  received: number
  videoId: string | null
}

const googleError = (code: number, message: string, reason: string, status: string, domain = "global") => ({
  error: { code, message, errors: [{ message, domain, reason }], status }
})
const KIB_256 = 256 * 1024
const base64url = (bytes: Buffer) => bytes.toString("base64url")
const token = (prefix: string) => `${prefix}.${base64url(randomBytes(24))}`

export const startFakeYouTube = async (options: { clientId?: string; clientSecret?: string } = {}) => {
  const clientId = options.clientId ?? "1234-herald.apps.googleusercontent.com"
  const clientSecret = options.clientSecret ?? "GOCSPX-fake_secret-123"
  /** Google accounts and their channel (none: no YouTube channel). */
  const users = new Map<
    string,
    { channel: { id: string; title: string; customUrl: string; avatar: string } | null; verified: boolean }
  >([
    [
      "g-alice",
      {
        channel: {
          id: "UCalice0000000000000000a",
          title: "Alice Makes Things",
          customUrl: "@alicemakes",
          avatar: "https://yt3.ggpht.com/alice=s88"
        },
        verified: true
      }
    ],
    [
      "g-bob",
      {
        channel: {
          id: "UCbob00000000000000000000",
          title: "Bob Unverified",
          customUrl: "@bobnew",
          avatar: "https://yt3.ggpht.com/bob=s88"
        },
        verified: false
      }
    ],
    ["g-nochannel", { channel: null, verified: false }]
  ])
  const codes = new Map<
    string,
    { redirectUri: string; challenge: string; user: string; scope: string; offline: boolean }
  >()
  const accessTokens = new Map<string, { user: string; expiresAt: number }>()
  const refreshTokens = new Map<string, string>()
  const sessions = new Map<string, Session>()
  const videos = new Map<string, FakeVideo>()
  const comments: Array<{ id: string; videoId: string; channel: string; text: string }> = []
  const log = requestLog()
  const everIssued: Array<string> = []
  let stalled: Array<() => void> = []

  const state = {
    clock: null as number | null,
    offsetMs: 0,
    authorizeAs: "g-alice",
    /** videos.list reads a video takes to be processed. */
    processingPolls: 2,
    /** The next processed video is rejected for this reason (duplicate...). */
    rejectNext: null as string | null,
    /** The chunk PUT starting at this byte is held open and never answered, nothing of it kept: a crash mid-upload. */
    stallAtByte: null as number | null,
    /** The chunk PUT starting at this byte is kept, but its answer is lost (the connection closes). */
    dropAnswerAtByte: null as number | null,
    /** Tokens lack a scope that reads videos (videos.list answers 403 insufficientPermissions). */
    readScopeMissing: false,
    /** The project's daily quota is used up (403 quotaExceeded). */
    quotaExceeded: false
  }
  /** Videos' statistics as YouTube counts them (tests set them); strings, as the API gives them. */
  const statistics = new Map<string, Record<string, number>>()
  const now = () => state.clock ?? Date.now() + state.offsetMs
  const newVideoId = () => base64url(randomBytes(8)).slice(0, 11)

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) =>
    sendJson(res, status, body, headers, "application/json; charset=UTF-8")
  // A video's bytes are recorded as their size and type.
  const readBody = (req: IncomingMessage) =>
    readRequestBody(req, (raw, type) => (raw.length > 0 ? { bytes: raw.length, type } : undefined))
  const bearer = (req: IncomingMessage) => {
    const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1])
    return access !== undefined && access.expiresAt > now() ? access.user : null
  }
  const unauthenticated = googleError(
    401,
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    "authError",
    "UNAUTHENTICATED"
  )
  const issue = (user: string, scope: string, withRefresh: boolean) => {
    const access = token("ya29")
    everIssued.push(access)
    accessTokens.set(access, { user, expiresAt: now() + 3599 * 1000 })
    const answer: Record<string, unknown> = { access_token: access, expires_in: 3599, scope, token_type: "Bearer" }
    if (withRefresh) {
      const refresh = `1//${base64url(randomBytes(30))}`
      refreshTokens.set(refresh, user)
      everIssued.push(refresh)
      answer.refresh_token = refresh
    }
    return answer
  }
  const videoResource = (v: FakeVideo) => ({
    kind: "youtube#video",
    id: v.id,
    snippet: { ...v.metadata.snippet, channelId: v.channel },
    status: {
      uploadStatus: v.uploadStatus,
      privacyStatus: v.metadata.status?.privacyStatus,
      ...(v.rejectionReason ? { rejectionReason: v.rejectionReason } : {})
    },
    processingDetails: {
      processingStatus:
        v.uploadStatus === "uploaded" ? "processing" : v.uploadStatus === "failed" ? "failed" : "succeeded"
    }
  })
  const finish = (s: Session) => {
    const video: FakeVideo = {
      id: newVideoId(),
      channel: s.channel,
      metadata: s.metadata,
      bytes: s.received,
      sha256: s.hash.digest("hex"),
      thumbnail: null,
      uploadStatus: "uploaded",
      pollsLeft: state.processingPolls
    }
    if (state.rejectNext !== null) {
      video.rejectionReason = state.rejectNext
      state.rejectNext = null
    }
    videos.set(video.id, video)
    s.videoId = video.id
    return video
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const query = url.searchParams
    // A stalled chunk: held until the test lets it go, then its connection is dropped; nothing of it is kept.
    const stallAt = /^bytes (\d+)-\d+\/\d+$/.exec(String(req.headers["content-range"] ?? ""))
    if (req.method === "PUT" && stallAt !== null && Number(stallAt[1]) === state.stallAtByte) {
      state.stallAtByte = null
      log.requests.push({
        method: "PUT",
        path: url.pathname,
        query: Object.fromEntries(query),
        headers: { ...req.headers } as Record<string, string>,
        body: { stalled: true }
      })
      req.resume()
      await new Promise<void>((resolve) => stalled.push(resolve))
      return req.socket.destroy()
    }
    const { raw, parsed } = await readBody(req)
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body, { ...reply.headers })
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (route === "GET /o/oauth2/v2/auth") {
      if (
        query.get("client_id") !== clientId ||
        query.get("response_type") !== "code" ||
        query.get("code_challenge_method") !== "S256"
      )
        return send(res, 400, {
          error: "invalid_request",
          error_description: "Missing required parameter: client_id or code_challenge"
        })
      const back = new URL(query.get("redirect_uri") ?? "")
      back.searchParams.set("state", query.get("state") ?? "")
      const code = `4/${base64url(randomBytes(20))}`
      codes.set(code, {
        redirectUri: query.get("redirect_uri") ?? "",
        challenge: query.get("code_challenge") ?? "",
        user: state.authorizeAs,
        scope: query.get("scope") ?? "",
        offline: query.get("access_type") === "offline"
      })
      back.searchParams.set("code", code)
      back.searchParams.set("scope", query.get("scope") ?? "")
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /token") {
      if (body?.client_id !== clientId || body?.client_secret !== clientSecret)
        return send(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." })
      if (body.grant_type === "authorization_code") {
        const grant = codes.get(body.code)
        codes.delete(body.code)
        const proof =
          typeof body.code_verifier === "string"
            ? createHash("sha256").update(body.code_verifier).digest("base64url")
            : null
        if (grant === undefined || grant.redirectUri !== body.redirect_uri || proof !== grant.challenge)
          return send(res, 400, { error: "invalid_grant", error_description: "Bad Request" })
        return send(res, 200, issue(grant.user, grant.scope, grant.offline))
      }
      if (body.grant_type === "refresh_token") {
        const user = refreshTokens.get(body.refresh_token)
        if (user === undefined)
          return send(res, 400, { error: "invalid_grant", error_description: "Token has been expired or revoked." })
        // Google's refresh tokens do not rotate: no new one in the answer.
        return send(
          res,
          200,
          issue(
            user,
            "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.force-ssl",
            false
          )
        )
      }
      return send(res, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type" })
    }

    const user = bearer(req)
    if (user === null)
      return send(res, 401, unauthenticated, {
        "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"'
      })
    const channel = users.get(user)?.channel ?? null

    if (route === "GET /youtube/v3/channels") {
      if (query.get("mine") !== "true")
        return send(res, 400, googleError(400, "No filter selected.", "missingRequiredParameter", "INVALID_ARGUMENT"))
      return send(res, 200, {
        kind: "youtube#channelListResponse",
        pageInfo: { totalResults: channel === null ? 0 : 1 },
        ...(channel === null
          ? {}
          : {
              items: [
                {
                  kind: "youtube#channel",
                  id: channel.id,
                  snippet: {
                    title: channel.title,
                    customUrl: channel.customUrl,
                    thumbnails: { default: { url: channel.avatar } }
                  }
                }
              ]
            })
      })
    }
    if (channel === null)
      return send(
        res,
        403,
        googleError(
          403,
          "The user is not connected to a YouTube channel.",
          "youtubeSignupRequired",
          "PERMISSION_DENIED"
        )
      )

    if (
      route === "POST /upload/youtube/v3/videos" &&
      query.get("uploadType") === "resumable" &&
      !query.has("upload_id")
    ) {
      const total = Number(req.headers["x-upload-content-length"])
      const type = String(req.headers["x-upload-content-type"] ?? "")
      const title = body?.snippet?.title
      if (!Number.isInteger(total) || total <= 0 || !type.startsWith("video/"))
        return send(res, 400, googleError(400, "Media type or length is missing.", "badContent", "INVALID_ARGUMENT"))
      if (typeof title !== "string" || title.length === 0 || title.length > 100 || /[<>]/.test(title))
        return send(
          res,
          400,
          googleError(
            400,
            "The request metadata specifies an invalid video title.",
            "invalidTitle",
            "INVALID_ARGUMENT",
            "youtube.video"
          )
        )
      if (/[<>]/.test(body?.snippet?.description ?? ""))
        return send(
          res,
          400,
          googleError(
            400,
            "The request metadata specifies an invalid video description.",
            "invalidDescription",
            "INVALID_ARGUMENT",
            "youtube.video"
          )
        )
      if (
        !["public", "unlisted", "private"].includes(body?.status?.privacyStatus) ||
        typeof body?.status?.selfDeclaredMadeForKids !== "boolean"
      )
        return send(
          res,
          400,
          googleError(400, "Invalid status.", "invalidVideoMetadata", "INVALID_ARGUMENT", "youtube.video")
        )
      const id = base64url(randomBytes(18))
      sessions.set(id, {
        id,
        channel: channel.id,
        total,
        type,
        metadata: body,
        hash: createHash("sha256"),
        received: 0,
        videoId: null
      })
      return send(res, 200, undefined, {
        location: `${origin}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${id}`,
        "x-guploader-uploadid": id
      })
    }
    if (req.method === "PUT" && url.pathname === "/upload/youtube/v3/videos" && query.has("upload_id")) {
      const session = sessions.get(query.get("upload_id")!)
      if (session === undefined || session.channel !== channel.id)
        return send(
          res,
          404,
          googleError(404, "The upload session was not found or has expired.", "notFound", "NOT_FOUND")
        )
      const range = String(req.headers["content-range"] ?? "")
      const done = () => send(res, 200, videoResource(videos.get(session.videoId!)!))
      const probe = /^bytes \*\/(\d+)$/.exec(range)
      if (probe !== null) {
        if (session.videoId !== null) return done()
        return send(res, 308, undefined, session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {})
      }
      const chunk = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range)
      if (chunk === null || Number(chunk[3]) !== session.total)
        return send(res, 400, googleError(400, "Invalid Content-Range.", "badRequest", "INVALID_ARGUMENT"))
      const [first, last] = [Number(chunk[1]), Number(chunk[2])]
      if (session.videoId !== null) return done()
      if (first !== session.received || last - first + 1 !== raw.length)
        return send(
          res,
          400,
          googleError(400, `Expected the bytes from ${session.received}.`, "badRequest", "INVALID_ARGUMENT")
        )
      const isLast = last + 1 === session.total
      if (!isLast && raw.length % KIB_256 !== 0)
        return send(
          res,
          400,
          googleError(400, "Chunks other than the last must be multiples of 256 KiB.", "badRequest", "INVALID_ARGUMENT")
        )
      session.hash.update(raw)
      session.received += raw.length
      if (isLast) finish(session)
      if (reply?.dropAnswer === true || first === state.dropAnswerAtByte) {
        state.dropAnswerAtByte = null
        return req.socket.destroy()
      }
      return isLast
        ? send(res, 201, videoResource(videos.get(session.videoId!)!))
        : send(res, 308, undefined, { range: `bytes=0-${session.received - 1}` })
    }
    if (route === "POST /upload/youtube/v3/thumbnails/set") {
      const video = videos.get(query.get("videoId") ?? "")
      if (video === undefined || video.channel !== channel.id)
        return send(
          res,
          404,
          googleError(
            404,
            "The video that you are trying to update cannot be found.",
            "videoNotFound",
            "NOT_FOUND",
            "youtube.thumbnail"
          )
        )
      if (!users.get(user)!.verified)
        return send(
          res,
          403,
          googleError(
            403,
            "The authenticated user doesn't have permissions to upload and set custom video thumbnails.",
            "forbidden",
            "PERMISSION_DENIED",
            "youtube.thumbnail"
          )
        )
      const type = String(req.headers["content-type"] ?? "")
      if (!["image/jpeg", "image/png"].includes(type) || raw.length > 2 * 1024 * 1024)
        return send(
          res,
          400,
          googleError(400, "The thumbnail image is invalid.", "invalidImage", "INVALID_ARGUMENT", "youtube.thumbnail")
        )
      video.thumbnail = { bytes: raw.length, type }
      return send(res, 200, {
        kind: "youtube#thumbnailSetResponse",
        items: [{ default: { url: `https://i.ytimg.com/vi/${video.id}/default.jpg` } }]
      })
    }
    if (route === "GET /youtube/v3/videos" && (query.get("part") ?? "").split(",").includes("statistics")) {
      if (state.quotaExceeded)
        return send(
          res,
          403,
          googleError(
            403,
            'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
            "quotaExceeded",
            "PERMISSION_DENIED",
            "youtube.quota"
          )
        )
      if (state.readScopeMissing)
        return send(
          res,
          403,
          googleError(
            403,
            "Request had insufficient authentication scopes.",
            "insufficientPermissions",
            "PERMISSION_DENIED"
          )
        )
      const ids = (query.get("id") ?? "").split(",").filter((id) => id !== "")
      if (ids.length > 50)
        return send(
          res,
          400,
          googleError(400, "The request specifies more than 50 video ids.", "invalidFilters", "INVALID_ARGUMENT")
        )
      const items = ids.flatMap((id) => {
        // A video the test gave statistics counts as the channel's, uploaded or not.
        if (!videos.has(id) && !statistics.has(id)) return []
        const counts = { viewCount: 0, likeCount: 0, favoriteCount: 0, commentCount: 0, ...statistics.get(id) }
        return [
          {
            kind: "youtube#video",
            id,
            statistics: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)]))
          }
        ]
      })
      return send(res, 200, { kind: "youtube#videoListResponse", items, pageInfo: { totalResults: items.length } })
    }
    if (route === "GET /youtube/v3/videos") {
      const video = videos.get(query.get("id") ?? "")
      if (video !== undefined && video.uploadStatus === "uploaded" && --video.pollsLeft <= 0)
        video.uploadStatus = video.rejectionReason !== undefined ? "rejected" : "processed"
      return send(res, 200, {
        kind: "youtube#videoListResponse",
        items: video === undefined ? [] : [videoResource(video)],
        pageInfo: { totalResults: video === undefined ? 0 : 1 }
      })
    }
    // videos.delete (DELETE /youtube/v3/videos?id=, 50 units): 204 No Content; the video's comments go with it.
    if (route === "DELETE /youtube/v3/videos") {
      const id = query.get("id") ?? ""
      const video = videos.get(id)
      if (video === undefined)
        return send(
          res,
          404,
          googleError(
            404,
            "The video identified by the <code>id</code> parameter could not be found.",
            "videoNotFound",
            "NOT_FOUND",
            "youtube.video"
          )
        )
      if (video.channel !== channel.id)
        return send(
          res,
          403,
          googleError(
            403,
            "The video that you are trying to delete cannot be deleted.",
            "forbidden",
            "PERMISSION_DENIED",
            "youtube.video"
          )
        )
      videos.delete(id)
      for (let i = comments.length - 1; i >= 0; i--) if (comments[i]!.videoId === id) comments.splice(i, 1)
      if (reply?.dropAnswer === true) return req.socket.destroy()
      res.writeHead(204)
      return res.end()
    }
    if (route === "POST /youtube/v3/commentThreads") {
      const videoId = body?.snippet?.videoId
      const text = body?.snippet?.topLevelComment?.snippet?.textOriginal
      if (!videos.has(videoId))
        return send(
          res,
          404,
          googleError(
            404,
            "The video identified by the videoId parameter could not be found.",
            "videoNotFound",
            "NOT_FOUND",
            "youtube.commentThread"
          )
        )
      if (typeof text !== "string" || text === "")
        return send(
          res,
          400,
          googleError(400, "The comment is empty.", "commentTextRequired", "INVALID_ARGUMENT", "youtube.commentThread")
        )
      const id = `Ug${base64url(randomBytes(12))}`
      comments.push({ id, videoId, channel: channel.id, text })
      if (reply?.dropAnswer === true) return req.socket.destroy()
      return send(res, 200, {
        kind: "youtube#commentThread",
        id,
        snippet: {
          videoId,
          channelId: videos.get(videoId)!.channel,
          topLevelComment: { id, snippet: { textOriginal: text, authorChannelId: { value: channel.id } } }
        }
      })
    }
    if (route === "GET /youtube/v3/commentThreads") {
      const list = comments.filter((c) => c.videoId === query.get("videoId")).reverse()
      return send(res, 200, {
        kind: "youtube#commentThreadListResponse",
        items: list.map((c) => ({
          id: c.id,
          snippet: {
            videoId: c.videoId,
            topLevelComment: { id: c.id, snippet: { textOriginal: c.text, authorChannelId: { value: c.channel } } }
          }
        }))
      })
    }
    send(res, 404, googleError(404, `No route for ${route}`, "notFound", "NOT_FOUND"))
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    send(res, 500, googleError(500, String(e), "backendError", "INTERNAL"))
  )

  return {
    origin,
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/o/oauth2/v2/auth`,
    tokenUrl: `${origin}/token`,
    state,
    users,
    videos: videos as ReadonlyMap<string, FakeVideo>,
    /** Sets a video's statistics under YouTube's names. */
    setStatistics: (id: string, counts: Record<string, number>) => void statistics.set(id, counts),
    comments,
    sessions: sessions as ReadonlyMap<
      string,
      { readonly received: number; readonly total: number; readonly videoId: string | null }
    >,
    requests: log.requests,
    script: log.script,
    calls: log.calls,
    /** Lets stalled chunks go (their connections are then dropped). */
    releaseStalled: () => {
      for (const release of stalled) release()
      stalled = []
    },
    /** Whether a chunk is being held. */
    hasStalled: () => stalled.length > 0,
    revoke: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
      for (const [t, u] of refreshTokens) if (u === user) refreshTokens.delete(t)
    },
    expireAccess: (user: string) => {
      for (const [t, a] of accessTokens) if (a.user === user) accessTokens.delete(t)
    },
    issuedTokens: () => [...everIssued],
    close: () => {
      for (const release of stalled) release()
      return close()
    }
  }
}

export type FakeYouTube = Awaited<ReturnType<typeof startFakeYouTube>>
