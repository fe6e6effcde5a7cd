import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local TikTok: Login Kit's OAuth 2.0 (client_key, rotating refresh tokens) and the Content Posting
 * API's Direct Post as TikTok documents it (docs/networks/tiktok.md): creator info, video init with
 * FILE_UPLOAD and the media transfer guide's chunk rules (1-1000 chunks of 5-64 MB), chunked PUTs
 * with Content-Range, photo init with PULL_FROM_URL (the images are fetched, from verified URL
 * prefixes only), Upload to inbox (inbox video init, scope video.upload, source_info only; a draft
 * ends in SEND_TO_USER_INBOX), and status/fetch through PROCESSING_UPLOAD, PROCESSING_DOWNLOAD and
 * PUBLISH_COMPLETE or FAILED, a public post's id showing only after moderation (moderationPolls). It
 * answers in TikTok's envelope ({data, error: {code, message, log_id}}), keeps its per-minute windows,
 * records every request and lets a test script failures.
 */

export interface FakeCreator {
  readonly openId: string
  readonly displayName: string
  readonly username: string
  privacyLevels: Array<string>
  commentDisabled: boolean
  duetDisabled: boolean
  stitchDisabled: boolean
  maxDurationSec: number
  /** An error code creator info answers with (spam_risk_too_many_posts...), or null. */
  cannotPost: string | null
}

export interface FakePublish {
  readonly publishId: string
  readonly openId: string
  readonly kind: "video" | "photo"
  readonly postInfo: any
  readonly videoSize: number
  readonly chunkSize: number
  readonly chunkCount: number
  readonly hash: ReturnType<typeof createHash>
  sha256: string | null
  received: number
  photos: Array<{ url: string; bytes: number; type: string }>
  /** Upload to inbox (a draft): it ends in SEND_TO_USER_INBOX, and the creator posts it in the app. */
  readonly inbox: boolean
  status: "PROCESSING_UPLOAD" | "PROCESSING_DOWNLOAD" | "SEND_TO_USER_INBOX" | "PUBLISH_COMPLETE" | "FAILED"
  pollsLeft: number
  /** Reads left before a public post's id shows (moderation). */
  moderationLeft: number
  failReason?: string
  postId: string | null
}

const MB5 = 5 * 1024 * 1024
const MB64 = 64 * 1024 * 1024
export const MAX_CHUNKS = 1000
const logId = () => `2026112${randomBytes(8).toString("hex").toUpperCase()}`
const ok = (data: unknown) => ({ data, error: { code: "ok", message: "", log_id: logId() } })
const failure = (code: string, message: string) => ({ data: {}, error: { code, message, log_id: logId() } })

export const startFakeTikTok = async (options: { clientKey?: string; clientSecret?: string } = {}) => {
  const clientKey = options.clientKey ?? "awherald0123456789"
  const clientSecret = options.clientSecret ?? "tiktok-secret-0123456789abcdef"
  const creators = new Map<string, FakeCreator>([
    [
      "u-alice",
      {
        openId: "_000aliceOpenId",
        displayName: "Alice",
        username: "alice.makes",
        privacyLevels: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"],
        commentDisabled: false,
        duetDisabled: true,
        stitchDisabled: false,
        maxDurationSec: 600,
        cannotPost: null
      }
    ],
    [
      "u-private",
      {
        openId: "_000privateOpenId",
        displayName: "Private Pat",
        username: "pat.private",
        privacyLevels: ["FOLLOWER_OF_CREATOR", "SELF_ONLY"],
        commentDisabled: true,
        duetDisabled: true,
        stitchDisabled: true,
        maxDurationSec: 60,
        cannotPost: null
      }
    ]
  ])
  const codes = new Map<string, { redirectUri: string; user: string; scope: string }>()
  const accessTokens = new Map<string, { user: string; expiresAt: number; scope: string }>()
  const refreshTokens = new Map<string, { user: string; expiresAt: number; scope: string }>()
  /** Videos' counts as TikTok keeps them (tests set them), by video id, with their creator. */
  const videoCounts = new Map<string, { user: string; counts: Record<string, number> }>()
  const publishes = new Map<string, FakePublish>()
  const windows = new Map<string, { count: number; resetAt: number }>()
  const log = requestLog()
  const everIssued: Array<string> = []
  let postCounter = 7_440_000_000_000_000_000n

  const state = {
    clock: null as number | null,
    offsetMs: 0,
    authorizeAs: "u-alice",
    /** status/fetch reads a post takes in PROCESSING_DOWNLOAD before PUBLISH_COMPLETE. */
    downloadPolls: 2,
    /**
     * status/fetch reads a public post takes after PUBLISH_COMPLETE before its id shows: TikTok gives
     * publicaly_available_post_id only once moderation is done, minutes to hours later (docs/networks/tiktok.md).
     */
    moderationPolls: 0,
    /** The next post fails while processing, with this fail_reason. */
    failNext: null as string | null,
    /** URL prefixes verified in the developer portal (PULL_FROM_URL). */
    verifiedPrefixes: [] as Array<string>,
    /** Rewrites a photo URL before fetching it (tests whose public URL is not where the host listens). */
    fetchVia: (url: string) => url,
    /** Per token per minute: init and status. */
    limits: { init: 6, status: 30, query: 600 }
  }
  const now = () => state.clock ?? Date.now() + state.offsetMs

  const send = sendJson
  const issue = (user: string, scope: string, refreshExpiresAt: number | null) => {
    const access = `act.${randomBytes(24).toString("hex")}`
    const refresh = `rft.${randomBytes(24).toString("hex")}`
    everIssued.push(access, refresh)
    accessTokens.set(access, { user, expiresAt: now() + 86_400 * 1000, scope })
    const refreshEnd = refreshExpiresAt ?? now() + 31_536_000 * 1000
    refreshTokens.set(refresh, { user, expiresAt: refreshEnd, scope })
    return {
      access_token: access,
      expires_in: 86_400,
      open_id: creators.get(user)!.openId,
      refresh_expires_in: Math.floor((refreshEnd - now()) / 1000),
      refresh_token: refresh,
      scope,
      token_type: "Bearer"
    }
  }
  const userOf = (req: IncomingMessage) => {
    const found = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")
    const access = found === null ? undefined : accessTokens.get(found[1])
    return access !== undefined && access.expiresAt > now() ? access.user : null
  }
  /** Counts a call in the token's window; false (and a 429 sent) when it is used up. */
  const metered = (res: ServerResponse, token: string, name: "init" | "status" | "query") => {
    const key = `${token}:${name}`
    let w = windows.get(key)
    if (w === undefined || w.resetAt <= now()) windows.set(key, (w = { count: 0, resetAt: now() + 60_000 }))
    if (w.count >= state.limits[name]) {
      send(res, 429, failure("rate_limit_exceeded", "API rate limit was exceeded. Please try again later."))
      return false
    }
    w.count++
    return true
  }
  const newPublishId = (kind: string) => `${kind}_pub_file~v2-1.${randomBytes(9).toString("hex")}`

  const checkPostInfo = (creator: FakeCreator, info: any, photo: boolean): string | null => {
    if (!creator.privacyLevels.includes(info?.privacy_level)) return "privacy_level_option_mismatch"
    if (creator.commentDisabled && info.disable_comment !== true) return "invalid_params"
    if (
      !photo &&
      ((creator.duetDisabled && info.disable_duet !== true) || (creator.stitchDisabled && info.disable_stitch !== true))
    )
      return "invalid_params"
    if (typeof info.title !== "string" || [...info.title].length > (photo ? 90 : 2200)) return "invalid_params"
    if (info.brand_content_toggle === true && info.privacy_level === "SELF_ONLY") return "invalid_params"
    return null
  }

  /** A video's FILE_UPLOAD init (direct post or inbox): its publish_id and upload URL, chunks as the media transfer guide says. */
  const startUpload = (res: ServerResponse, creator: FakeCreator, body: any, inbox: boolean, dropAnswer: boolean) => {
    const source = body?.source_info ?? {}
    const size = source.video_size
    // The media transfer guide: 1-1000 chunks of 5-64 MB, floor(size / chunk) of them, the last taking the rest.
    const goodChunks =
      source.source === "FILE_UPLOAD" &&
      Number.isInteger(size) &&
      size > 0 &&
      Number.isInteger(source.total_chunk_count) &&
      source.total_chunk_count >= 1 &&
      source.total_chunk_count <= MAX_CHUNKS &&
      (size < MB5
        ? source.chunk_size === size && source.total_chunk_count === 1
        : source.chunk_size >= MB5 &&
          source.chunk_size <= MB64 &&
          source.total_chunk_count === Math.floor(size / source.chunk_size) &&
          size - source.chunk_size * (source.total_chunk_count - 1) <= 2 * MB64)
    if (!goodChunks)
      return send(
        res,
        400,
        failure("invalid_params", "The chunk size or count does not follow the media transfer guide.")
      )
    const publishId = newPublishId(inbox ? "i" : "v")
    publishes.set(publishId, {
      publishId,
      openId: creator.openId,
      kind: "video",
      inbox,
      postInfo: inbox ? null : body.post_info,
      videoSize: size,
      chunkSize: source.chunk_size,
      chunkCount: source.total_chunk_count,
      hash: createHash("sha256"),
      sha256: null,
      received: 0,
      photos: [],
      status: "PROCESSING_UPLOAD",
      pollsLeft: state.downloadPolls,
      moderationLeft: state.moderationPolls,
      postId: null
    })
    if (dropAnswer) return res.socket?.destroy()
    return send(
      res,
      200,
      ok({
        publish_id: publishId,
        upload_url: `${origin}/upload/${encodeURIComponent(publishId)}?upload_token=${randomBytes(8).toString("hex")}`
      })
    )
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const { raw, parsed } = await readRequestBody(req)
    const query = url.searchParams
    const reply = log.record(req, url, parsed)
    if (reply !== null && reply.dropAnswer !== true) return send(res, reply.status, reply.body)
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (route === "GET /v2/auth/authorize/") {
      if (query.get("client_key") !== clientKey || query.get("response_type") !== "code")
        return send(res, 400, { error: "invalid_client", error_description: "client_key is invalid" })
      const back = new URL(query.get("redirect_uri") ?? "")
      const code = randomBytes(16).toString("hex")
      codes.set(code, {
        redirectUri: query.get("redirect_uri") ?? "",
        user: state.authorizeAs,
        scope: query.get("scope") ?? ""
      })
      back.searchParams.set("code", code)
      back.searchParams.set("scopes", query.get("scope") ?? "")
      back.searchParams.set("state", query.get("state") ?? "")
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }
    if (route === "POST /v2/oauth/token/") {
      // TikTok's OAuth errors: {error, error_description, log_id}, here with a 200 as some of TikTok's answers come.
      if (body?.client_key !== clientKey || body?.client_secret !== clientSecret)
        return send(res, 200, {
          error: "invalid_client",
          error_description: "Client key or secret is incorrect.",
          log_id: logId()
        })
      if (body.grant_type === "authorization_code") {
        const grant = codes.get(body.code)
        codes.delete(body.code)
        if (grant === undefined || grant.redirectUri !== body.redirect_uri)
          return send(res, 200, {
            error: "invalid_grant",
            error_description: "Authorization code is expired.",
            log_id: logId()
          })
        return send(res, 200, issue(grant.user, grant.scope, null))
      }
      if (body.grant_type === "refresh_token") {
        const refresh = refreshTokens.get(body.refresh_token)
        // Rotation: a refresh token works once.
        refreshTokens.delete(body.refresh_token)
        if (refresh === undefined || refresh.expiresAt <= now())
          return send(res, 200, {
            error: "invalid_grant",
            error_description: "Refresh token is invalid or expired.",
            log_id: logId()
          })
        return send(res, 200, issue(refresh.user, refresh.scope, refresh.expiresAt))
      }
      return send(res, 200, {
        error: "unsupported_grant_type",
        error_description: "grant_type is not supported",
        log_id: logId()
      })
    }

    const upload = /^\/upload\/([^/]+)$/.exec(url.pathname)
    if (req.method === "PUT" && upload !== null) {
      const publish = publishes.get(decodeURIComponent(upload[1]))
      if (publish === undefined || publish.status !== "PROCESSING_UPLOAD")
        return send(res, 404, failure("invalid_params", "Upload not found or finished"))
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers["content-range"] ?? ""))
      if (range === null || Number(range[3]) !== publish.videoSize)
        return send(res, 400, failure("invalid_file_upload", "Content-Range is missing or names another size."))
      const [first, last] = [Number(range[1]), Number(range[2])]
      const index = Math.floor(first / publish.chunkSize)
      const expectedLast = index === publish.chunkCount - 1 ? publish.videoSize - 1 : first + publish.chunkSize - 1
      if (
        first !== publish.received ||
        first % publish.chunkSize !== 0 ||
        last !== expectedLast ||
        raw.length !== last - first + 1
      )
        return send(
          res,
          400,
          failure(
            "invalid_file_upload",
            `Expected bytes ${publish.received}-${expectedLast}, got ${first}-${last} (${raw.length} bytes).`
          )
        )
      publish.hash.update(raw)
      publish.received += raw.length
      const complete = publish.received === publish.videoSize
      if (complete) {
        publish.sha256 = publish.hash.digest("hex")
        publish.status = "PROCESSING_DOWNLOAD"
      }
      if (reply?.dropAnswer === true) return req.socket.destroy()
      return send(res, complete ? 201 : 206)
    }

    const user = userOf(req)
    if (user === null)
      return send(res, 401, failure("access_token_invalid", "The access token is invalid or not found in the request."))
    const creator = creators.get(user)!
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")![1]

    if (route === "POST /v2/video/query/") {
      // Display API: needs the video.list scope; up to 20 of the creator's own video ids; 600 calls a minute per token.
      if (!accessTokens.get(token)!.scope.split(",").includes("video.list"))
        return send(
          res,
          401,
          failure("scope_not_authorized", "The user did not authorize the scope required for completing this request.")
        )
      if (!metered(res, token, "query")) return
      const ids: unknown = body?.filters?.video_ids
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20)
        return send(res, 400, failure("invalid_params", "filters.video_ids must hold 1 to 20 video ids."))
      const fields = (query.get("fields") ?? "").split(",")
      const videos = ids.flatMap((id) => {
        const found = videoCounts.get(String(id))
        if (found === undefined || found.user !== user) return []
        const counts: Record<string, number> = {
          view_count: 0,
          like_count: 0,
          comment_count: 0,
          share_count: 0,
          ...found.counts
        }
        return [
          Object.fromEntries([["id", String(id)], ...fields.filter((f) => f in counts).map((f) => [f, counts[f]])])
        ]
      })
      return send(res, 200, ok({ videos, cursor: 0, has_more: false }))
    }
    if (route === "GET /v2/user/info/")
      return send(
        res,
        200,
        ok({
          user: {
            open_id: creator.openId,
            display_name: creator.displayName,
            avatar_url: `https://p16.tiktokcdn.com/${creator.username}.jpeg`
          }
        })
      )
    if (route === "POST /v2/post/publish/creator_info/query/") {
      if (creator.cannotPost !== null)
        return send(res, 403, failure(creator.cannotPost, "The creator cannot post right now."))
      return send(
        res,
        200,
        ok({
          creator_avatar_url: `https://p16.tiktokcdn.com/${creator.username}.jpeg`,
          creator_username: creator.username,
          creator_nickname: creator.displayName,
          privacy_level_options: creator.privacyLevels,
          comment_disabled: creator.commentDisabled,
          duet_disabled: creator.duetDisabled,
          stitch_disabled: creator.stitchDisabled,
          max_video_post_duration_sec: creator.maxDurationSec
        })
      )
    }
    if (route === "POST /v2/post/publish/video/init/") {
      if (!metered(res, token, "init")) return
      const problem = checkPostInfo(creator, body?.post_info, false)
      if (problem !== null)
        return send(
          res,
          400,
          failure(
            problem,
            problem === "privacy_level_option_mismatch"
              ? "privacy_level is not one of the creator's options."
              : "post_info is invalid."
          )
        )
      return startUpload(res, creator, body, false, reply?.dropAnswer === true)
    }
    // Upload (to the creator's inbox): scope video.upload; source_info only, the creator sets the rest in the app.
    if (route === "POST /v2/post/publish/inbox/video/init/") {
      if (!accessTokens.get(token)!.scope.split(",").includes("video.upload"))
        return send(
          res,
          401,
          failure("scope_not_authorized", "The user did not authorize the scope required for completing this request.")
        )
      if (!metered(res, token, "init")) return
      return startUpload(res, creator, body, true, reply?.dropAnswer === true)
    }
    if (route === "POST /v2/post/publish/content/init/") {
      if (!metered(res, token, "init")) return
      if (body?.media_type !== "PHOTO" || body?.post_mode !== "DIRECT_POST")
        return send(res, 400, failure("invalid_params", "media_type PHOTO and post_mode DIRECT_POST expected."))
      const problem = checkPostInfo(creator, body?.post_info, true)
      if (problem !== null) return send(res, 400, failure(problem, "post_info is invalid."))
      const urls: Array<string> = body?.source_info?.photo_images ?? []
      if (body?.source_info?.source !== "PULL_FROM_URL" || urls.length === 0 || urls.length > 35)
        return send(res, 400, failure("invalid_params", "1-35 photo_images by PULL_FROM_URL."))
      if (!urls.every((u) => state.verifiedPrefixes.some((p) => u.startsWith(p))))
        return send(res, 403, failure("url_ownership_unverified", "The URL's domain or prefix is not verified."))
      const publishId = newPublishId("p")
      const publish: FakePublish = {
        publishId,
        openId: creator.openId,
        kind: "photo",
        inbox: false,
        postInfo: body.post_info,
        videoSize: 0,
        chunkSize: 0,
        chunkCount: 0,
        hash: createHash("sha256"),
        sha256: null,
        received: 0,
        photos: [],
        status: "PROCESSING_DOWNLOAD",
        pollsLeft: state.downloadPolls,
        moderationLeft: state.moderationPolls,
        postId: null
      }
      publishes.set(publishId, publish)
      // TikTok pulls the photos at once.
      for (const photoUrl of urls) {
        const got = await fetch(state.fetchVia(photoUrl)).then(
          async (r) => ({
            ok: r.ok,
            type: r.headers.get("content-type") ?? "",
            bytes: (await r.arrayBuffer()).byteLength
          }),
          () => null
        )
        if (got === null || !got.ok || !/^image\/(jpeg|webp)/.test(got.type)) {
          publish.status = "FAILED"
          publish.failReason = got?.ok ? "file_format_check_failed" : "photo_pull_failed"
          break
        }
        publish.photos.push({ url: photoUrl, bytes: got.bytes, type: got.type })
      }
      return send(res, 200, ok({ publish_id: publishId }))
    }
    if (route === "POST /v2/post/publish/status/fetch/") {
      if (!metered(res, token, "status")) return
      const publish = publishes.get(body?.publish_id)
      if (publish === undefined || publish.openId !== creator.openId)
        return send(res, 400, failure("invalid_params", "publish_id is invalid."))
      // Moderation ends after its reads; a private post never gets an id.
      const moderated =
        publish.status === "PUBLISH_COMPLETE" && publish.moderationLeft > 0 && --publish.moderationLeft === 0
      if (moderated && publish.postInfo.privacy_level !== "SELF_ONLY") publish.postId = String(++postCounter)
      if (publish.status === "PROCESSING_DOWNLOAD" && --publish.pollsLeft <= 0) {
        if (state.failNext !== null) {
          publish.status = "FAILED"
          publish.failReason = state.failNext
          state.failNext = null
        } else if (publish.inbox) {
          // A draft is delivered to the creator's inbox: no post, no id, until they post it in the app.
          publish.status = "SEND_TO_USER_INBOX"
        } else {
          publish.status = "PUBLISH_COMPLETE"
          if (publish.moderationLeft === 0 && publish.postInfo.privacy_level !== "SELF_ONLY")
            publish.postId = String(++postCounter)
        }
      }
      const answer = JSON.stringify(
        ok({
          status: publish.status,
          ...(publish.failReason ? { fail_reason: publish.failReason } : {}),
          ...(publish.kind === "video"
            ? { uploaded_bytes: publish.received }
            : { downloaded_bytes: publish.photos.reduce((n, p) => n + p.bytes, 0) }),
          ...(publish.postId !== null ? { publicaly_available_post_id: ["POST_ID"] } : {})
        })
      )
      // TikTok's post ids are JSON numbers of 19 digits (int64), written here digit for digit.
      res.writeHead(200, { "content-type": "application/json" })
      return res.end(publish.postId === null ? answer : answer.replace('"POST_ID"', publish.postId))
    }
    send(res, 404, failure("invalid_params", `No route for ${route}`))
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    send(res, 500, failure("internal_error", String(e)))
  )

  return {
    origin,
    clientKey,
    clientSecret,
    authorizeUrl: `${origin}/v2/auth/authorize/`,
    tokenUrl: `${origin}/v2/oauth/token/`,
    state,
    /** The token as if granted only `scope` (an account connected before a scope was asked): its new value. */
    narrowScope: (token: string, scope: string) => {
      const access = accessTokens.get(token)!
      accessTokens.set(token, { ...access, scope })
      return token
    },
    /** Sets a video's counts under TikTok's names, as a video of `user`. */
    setCounts: (id: string, counts: Record<string, number>, user = "u-alice") =>
      void videoCounts.set(id, { user, counts }),
    creators,
    publishes: publishes as ReadonlyMap<string, FakePublish>,
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

export type FakeTikTok = Awaited<ReturnType<typeof startFakeTikTok>>
