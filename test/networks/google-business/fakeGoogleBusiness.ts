import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, readRequestBody, requestLog, sendJson } from "../shared/harness.ts"
import { googleUsers } from "./fakeBusinesses.ts"
import { makeGoogleOAuth } from "./fakeGoogleOAuth.ts"

/**
 * A local Google for Business Profile, written from Google's reference (docs/networks/google-business.md):
 * its OAuth 2.0 (fakeGoogleOAuth.ts), Account Management's GET /v1/accounts, Business Information's
 * GET /v1/{account}/locations (readMask required, pageToken paging), and the v4 localPosts create, get, list and delete, with Google's
 * review (PROCESSING, then LIVE or REJECTED). The image of a post is fetched from its sourceUrl, as
 * Google does. Errors in Google's shape ({error: {code, message, status}}); records every request and
 * lets a test script answers (a 429 RESOURCE_EXHAUSTED, a lost answer).
 */

export interface FakeLocalPost {
  readonly name: string
  readonly parent: string
  readonly body: Record<string, any>
  readonly createTime: number
  state: "PROCESSING" | "LIVE" | "REJECTED"
  reviewsLeft: number
  rejectAtReview: boolean
  /** SHA-256 of the image Google fetched from sourceUrl. */
  readonly imageSha256: string | null
}

const googleError = (code: number, message: string, status: string, details?: ReadonlyArray<unknown>) => ({
  error: { code, message, status, ...(details === undefined ? {} : { details }) }
})

export const startFakeGoogleBusiness = async () => {
  const clientId = "123456789-gbp.apps.googleusercontent.com"
  const clientSecret = "GOCSPX-business-secret"
  const users = googleUsers()
  const posts = new Map<string, FakeLocalPost>()
  const log = requestLog()
  let postCounter = 5_000_000

  const state = {
    clock: null as number | null,
    authorizeAs: "g-alice",
    /** Accounts and locations per page (Google's pageSize; tests make it small to see the paging). */
    pageSize: 1,
    /** Reads a new post stays PROCESSING (0: LIVE at once). */
    reviewReads: 0,
    /** The next post is REJECTED by Google's review. */
    rejectNext: false
  }
  const now = () => state.clock ?? Date.now()
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) =>
    sendJson(res, status, body, headers, "application/json; charset=UTF-8")
  const oauth = makeGoogleOAuth({ clientId, clientSecret, now, user: () => state.authorizeAs, send })
  /** One page of `items` from the pageToken (an offset, as the fake keeps it). */
  const page = <T>(items: ReadonlyArray<T>, token: string | null) => {
    const from = token === null ? 0 : Number(token)
    const next = from + state.pageSize
    return { items: items.slice(from, next), nextPageToken: next < items.length ? String(next) : undefined }
  }
  const view = (p: FakeLocalPost) => ({
    name: p.name,
    ...p.body,
    createTime: new Date(p.createTime).toISOString(),
    updateTime: new Date(p.createTime).toISOString(),
    state: p.state,
    ...(p.state === "LIVE"
      ? {
          searchUrl: `https://local.google.com/place?id=${p.parent.split("/").pop()}&use=posts&lpsid=${p.name.split("/").pop()}`
        }
      : {})
  })
  /** A review read: PROCESSING until its reads are done, then LIVE or REJECTED. */
  const review = (p: FakeLocalPost) => {
    if (p.state !== "PROCESSING") return
    if (p.reviewsLeft > 0) p.reviewsLeft--
    else p.state = p.rejectAtReview ? "REJECTED" : "LIVE"
  }
  const owns = (user: string, parent: string) =>
    (users.get(user) ?? []).some(
      (a) => parent.startsWith(`${a.name}/`) && a.locations.some((l) => parent === `${a.name}/${l.name}`)
    )
  /** What Google refuses in a LocalPost, in its own words (INVALID_ARGUMENT), or null. */
  const invalid = (body: Record<string, any>): string | null => {
    const summary = body.summary
    if (summary !== undefined && (typeof summary !== "string" || summary.length > 1500))
      return "Request contains an invalid argument. summary must be at most 1500 characters."
    if (!["STANDARD", "EVENT", "OFFER", "ALERT"].includes(body.topicType))
      return "Request contains an invalid argument. topicType is required."
    if ((body.topicType === "EVENT" || body.topicType === "OFFER") && typeof body.event?.title !== "string")
      return "Request contains an invalid argument. event is required for EVENT and OFFER posts."
    const action = body.callToAction
    if (action !== undefined) {
      if (!["BOOK", "ORDER", "SHOP", "LEARN_MORE", "SIGN_UP", "CALL"].includes(action.actionType))
        return "Request contains an invalid argument. callToAction.actionType is not valid."
      if ((action.actionType === "CALL") !== (action.url === undefined))
        return "Request contains an invalid argument. callToAction.url must be set, and unset for CALL."
    }
    if (Array.isArray(body.media) && (body.media.length > 1 || body.media.some((m: any) => m.mediaFormat !== "PHOTO")))
      return "Request contains an invalid argument. Only one PHOTO is supported."
    return null
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const query = url.searchParams
    const { parsed } = await readRequestBody(req)
    const scripted = log.record(req, url, parsed)
    if (scripted !== null && scripted.dropAnswer !== true)
      return send(res, scripted.status, scripted.body, { ...scripted.headers })
    const route = `${req.method} ${url.pathname}`
    const body = parsed as any

    if (oauth.handle(route, query, body, res)) return
    const user = oauth.bearer(req)
    if (user === null)
      return send(
        res,
        401,
        googleError(
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token.",
          "UNAUTHENTICATED"
        ),
        { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' }
      )
    const accounts = users.get(user) ?? []

    if (route === "GET /v1/accounts") {
      const p = page(accounts, query.get("pageToken"))
      return send(res, 200, {
        accounts: p.items.map((a) => ({ name: a.name, accountName: a.accountName, type: a.type })),
        ...(p.nextPageToken === undefined ? {} : { nextPageToken: p.nextPageToken })
      })
    }
    const locationsOf = /^\/v1\/(accounts\/[^/]+)\/locations$/.exec(url.pathname)
    if (req.method === "GET" && locationsOf !== null) {
      if (!query.get("readMask"))
        return send(
          res,
          400,
          googleError(400, "Request contains an invalid argument. read_mask is required.", "INVALID_ARGUMENT")
        )
      const account = accounts.find((a) => a.name === locationsOf[1])
      if (account === undefined)
        return send(res, 403, googleError(403, "The caller does not have permission", "PERMISSION_DENIED"))
      const fields = query.get("readMask")!.split(",")
      const p = page(account.locations, query.get("pageToken"))
      return send(res, 200, {
        locations: p.items.map((l) => Object.fromEntries(Object.entries(l).filter(([k]) => fields.includes(k)))),
        ...(p.nextPageToken === undefined ? {} : { nextPageToken: p.nextPageToken })
      })
    }
    const postsOf = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts$/.exec(url.pathname)
    if (postsOf !== null) {
      const parent = postsOf[1]
      if (!owns(user, parent))
        return send(res, 403, googleError(403, "The caller does not have permission", "PERMISSION_DENIED"))
      if (req.method === "GET") {
        const mine = [...posts.values()].filter((p) => p.parent === parent).sort((a, b) => b.createTime - a.createTime)
        const size = Math.min(100, Number(query.get("pageSize") ?? "20"))
        return send(res, 200, { localPosts: mine.slice(0, size).map(view) })
      }
      if (req.method === "POST") {
        const problem = invalid(body ?? {})
        if (problem !== null) return send(res, 400, googleError(400, problem, "INVALID_ARGUMENT"))
        let imageSha256: string | null = null
        const source = body.media?.[0]?.sourceUrl
        if (typeof source === "string") {
          // Google fetches the photo itself; one it cannot get is an invalid argument.
          const image = await fetch(source).catch(() => null)
          if (image === null || !image.ok)
            return send(
              res,
              400,
              googleError(
                400,
                `Request contains an invalid argument. Media could not be fetched from ${source}.`,
                "INVALID_ARGUMENT"
              )
            )
          imageSha256 = createHash("sha256")
            .update(Buffer.from(await image.arrayBuffer()))
            .digest("hex")
        }
        const reviewing = state.reviewReads > 0
        const post: FakeLocalPost = {
          name: `${parent}/localPosts/${++postCounter}`,
          parent,
          body,
          createTime: now(),
          state: state.rejectNext && !reviewing ? "REJECTED" : reviewing ? "PROCESSING" : "LIVE",
          reviewsLeft: state.reviewReads - 1,
          rejectAtReview: state.rejectNext && reviewing,
          imageSha256
        }
        state.rejectNext = false
        posts.set(post.name, post)
        // A lost answer: the post is made, the connection closed.
        if (scripted?.dropAnswer === true) return req.socket.destroy()
        return send(res, 200, view(post))
      }
    }
    const one = /^\/v4\/(accounts\/[^/]+\/locations\/[^/]+)\/localPosts\/[^/]+$/.exec(url.pathname)
    if (one !== null) {
      if (!owns(user, one[1]))
        return send(res, 403, googleError(403, "The caller does not have permission", "PERMISSION_DENIED"))
      const name = url.pathname.slice("/v4/".length)
      const post = posts.get(name)
      if (post === undefined) return send(res, 404, googleError(404, "Requested entity was not found.", "NOT_FOUND"))
      if (req.method === "GET") {
        review(post)
        return send(res, 200, view(post))
      }
      if (req.method === "DELETE") {
        posts.delete(name)
        return send(res, 200, {})
      }
    }
    send(res, 404, googleError(404, `No route for ${route}`, "NOT_FOUND"))
  }

  const { origin, close } = await listenLocally(handle, (res, e) =>
    send(res, 500, googleError(500, String(e), "INTERNAL"))
  )

  return {
    origin,
    clientId,
    clientSecret,
    authorizeUrl: `${origin}/o/oauth2/v2/auth`,
    tokenUrl: `${origin}/token`,
    state,
    posts: posts as ReadonlyMap<string, FakeLocalPost>,
    requests: log.requests,
    script: log.script,
    calls: log.calls,
    revoke: oauth.revoke,
    expireAccess: oauth.expireAccess,
    issuedTokens: oauth.issuedTokens,
    close
  }
}

export type FakeGoogleBusiness = Awaited<ReturnType<typeof startFakeGoogleBusiness>>

/** Google's 429 for a used-up per-minute quota. */
export const resourceExhausted = {
  status: 429,
  body: googleError(
    429,
    "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute'.",
    "RESOURCE_EXHAUSTED"
  )
}
/** Google's 403 when the Business Profile APIs are not enabled for the project. */
export const serviceDisabled = {
  status: 403,
  body: googleError(
    403,
    "My Business Business Information API has not been used in project 123456789 before or it is disabled.",
    "PERMISSION_DENIED",
    [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "SERVICE_DISABLED" }]
  )
}
