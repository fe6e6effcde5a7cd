import type { IncomingMessage, ServerResponse } from "node:http"
import { listenLocally, requestLog, sendJson } from "../shared/harness.ts"

/**
 * A local Bluesky AppView: app.bsky.feed.getPosts as its lexicon documents it (uris: 1 to 25 at://
 * URIs; posts it cannot find are left out; InvalidRequest otherwise), with the RateLimit-* headers of
 * Bluesky's services and a 429 when its window is used up.
 */
export const startFakeAppView = async () => {
  const posts = new Map<string, Record<string, number>>()
  const log = requestLog()
  const state = { limit: 3000, used: 0, resetAt: Math.floor(Date.now() / 1000) + 300 }
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    const reply = log.record(req, url, undefined)
    if (reply !== null) return sendJson(res, reply.status, reply.body, { ...reply.headers })
    if (url.pathname !== "/xrpc/app.bsky.feed.getPosts")
      return sendJson(res, 501, { error: "MethodNotImplemented", message: "Method Not Implemented" })
    const headers = {
      "ratelimit-limit": String(state.limit),
      "ratelimit-remaining": String(Math.max(0, state.limit - state.used - 1)),
      "ratelimit-reset": String(state.resetAt),
      "ratelimit-policy": `${state.limit};w=300`
    }
    if (state.used >= state.limit)
      return sendJson(res, 429, { error: "RateLimitExceeded", message: "Rate Limit Exceeded" }, headers)
    state.used++
    const uris = url.searchParams.getAll("uris")
    if (uris.length === 0 || uris.length > 25 || uris.some((u) => !u.startsWith("at://")))
      return sendJson(res, 400, { error: "InvalidRequest", message: "Error: uris must be 1-25 at-uris" }, headers)
    const found = uris.flatMap((uri) => {
      const counts = posts.get(uri)
      if (counts === undefined) return []
      const [, , did, , rkey] = uri.split("/")
      return [
        {
          uri,
          cid: `bafyrei${rkey}`,
          author: { did, handle: "alice.test" },
          record: { $type: "app.bsky.feed.post", text: "", createdAt: new Date().toISOString() },
          indexedAt: new Date().toISOString(),
          likeCount: 0,
          repostCount: 0,
          replyCount: 0,
          quoteCount: 0,
          bookmarkCount: 0,
          ...counts
        }
      ]
    })
    sendJson(res, 200, { posts: found }, headers)
  }
  const server = await listenLocally(handle, (res, e) =>
    sendJson(res, 500, { error: "InternalServerError", message: String(e) })
  )
  return { ...server, posts, state, calls: log.calls, script: log.script }
}

export type FakeAppView = Awaited<ReturnType<typeof startFakeAppView>>
