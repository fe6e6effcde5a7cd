import { ConfigProvider, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultHttpSettings, loadConfig } from "../../application/config.ts"
import { REST_UPLOAD_LIMIT } from "../../application/usecases/media/upload.ts"
import { sendBody } from "../support/bigBody.ts"
import { claim, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

const KiB = 1024
const MiB = 1024 * KiB
const limits = defaultHttpSettings.bodyLimits

let host: HttpHost
let key = ""
let session: { cookie: string; csrf: string }
beforeAll(async () => {
  host = await startHttpHost()
  const owner = await signUp(host)
  key = owner.key
  session = await claim(host, owner.email)
})
afterAll(() => host?.close())

const refused = (reply: { status: number; body: any; headers: Record<string, unknown> }, limitBytes: number) => {
  expect(reply.status).toBe(413)
  expect(reply.body.error).toMatchObject({ code: "payload_too_large", retryable: false, details: { limitBytes } })
  expect(reply.headers.connection).toBe("close")
}

describe("request body limits, per route, enforced while reading", () => {
  const routes = (): Array<{ name: string; path: string; limit: number; headers: Record<string, string> }> => [
    { name: "sign-up", path: "/api/v1/signup", limit: limits.json, headers: {} },
    {
      name: "create a key",
      path: "/api/v1/keys",
      limit: limits.json,
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf }
    },
    {
      name: "bulk approve",
      path: "/api/v1/posts/bulk-approve",
      limit: limits.json,
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf }
    },
    {
      name: "reschedule",
      path: "/api/v1/posts/post_x/reschedule",
      limit: limits.json,
      headers: { authorization: `Bearer ${key}` }
    },
    { name: "create a post", path: "/api/v1/posts", limit: limits.posts, headers: { authorization: `Bearer ${key}` } },
    {
      name: "MCP",
      path: "/mcp",
      limit: limits.mcp,
      headers: { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream" }
    },
    {
      name: "sign-in form",
      path: "/signin",
      limit: limits.forms,
      headers: { "content-type": "application/x-www-form-urlencoded" }
    },
    {
      name: "claim form",
      path: "/claim",
      limit: limits.forms,
      headers: { "content-type": "application/x-www-form-urlencoded" }
    },
    {
      name: "sign-in confirmation",
      path: "/signin/complete",
      limit: limits.forms,
      headers: { "content-type": "application/x-www-form-urlencoded" }
    }
  ]

  it("a body one byte over the route's limit is 413 payload_too_large, with Content-Length and chunked", async () => {
    for (const route of routes())
      for (const chunked of [false, true]) {
        const reply = await sendBody(`${host.origin}${route.path}`, {
          headers: route.headers,
          head: '{"x":"',
          size: route.limit + 1 - 8,
          tail: '"}',
          chunked
        })
        refused(reply, route.limit)
      }
  }, 60_000)

  it("an endpoint that takes no body answers without reading one, and the rest is not read", async () => {
    const size = 64 * MiB
    for (const path of ["/api/v1/claim-link", "/api/v1/accounts"]) {
      const reply = await sendBody(`${host.origin}${path}`, {
        headers: { authorization: `Bearer ${key}` },
        size,
        chunked: true
      })
      expect(reply.status, path).toBeLessThan(500)
      expect(reply.sent, path).toBeLessThan(size / 2)
    }
  }, 60_000)

  it("a body at the limit is read and answered by the endpoint itself", async () => {
    for (const route of routes().filter((r) => r.limit < 2 * MiB)) {
      const reply = await sendBody(`${host.origin}${route.path}`, {
        headers: route.headers,
        head: '{"x":"',
        size: route.limit - 8,
        tail: '"}'
      })
      expect(reply.status, route.name).not.toBe(413)
      expect(reply.status, route.name).toBeLessThan(500)
    }
  })

  it("the longest post any network takes, 63,206 characters each written as a \\u-escaped surrogate pair, fits the posts limit", async () => {
    const raw = `{"accountIds":["acc_x"],"content":"${"\\ud83d\\ude00".repeat(63_206)}"}`
    expect(raw.length).toBeGreaterThan(700 * KiB)
    const reply = await call(host, "POST", "/posts", { key, raw })
    expect(reply.status).not.toBe(413)
    expect(reply.status).toBeLessThan(500)
  })

  it("a declared Content-Length over the limit is refused before the body is read", async () => {
    const size = 64 * MiB
    for (const path of ["/api/v1/signup", "/api/v1/posts", "/signin"]) {
      const reply = await sendBody(`${host.origin}${path}`, { headers: { authorization: `Bearer ${key}` }, size })
      expect(reply.status, path).toBe(413)
      expect(reply.sent, path).toBeLessThan(size / 2)
    }
  }, 60_000)

  it("a chunked body is cut at the limit: the connection is not read to its end", async () => {
    const size = 64 * MiB
    const reply = await sendBody(`${host.origin}/api/v1/signup`, {
      head: '{"agentName":"',
      size,
      tail: '"}',
      chunked: true
    })
    refused(reply, limits.json)
    expect(reply.sent).toBeLessThan(size / 2)
  }, 60_000)

  it("POST /media keeps its own limit: a Content-Length over its JSON form's ceiling is 413 file_too_large, unread", async () => {
    const size = 200 * MiB
    const reply = await sendBody(`${host.origin}/api/v1/media`, { headers: { authorization: `Bearer ${key}` }, size })
    expect(reply.status).toBe(413)
    expect(reply.body.error).toMatchObject({ code: "file_too_large", details: { maxBytes: REST_UPLOAD_LIMIT } })
    expect(reply.sent).toBeLessThan(size / 2)
  }, 60_000)

  it("the server answers normally after refusing bodies", async () => {
    expect((await call(host, "GET", "/accounts", { key })).status).toBe(200)
  })
})

describe("body limit settings", () => {
  it("are read from HERALD_JSON_BODY_LIMIT, HERALD_POSTS_BODY_LIMIT, HERALD_FORM_BODY_LIMIT, HERALD_MCP_BODY_LIMIT, HERALD_BATCH_BODY_LIMIT", async () => {
    const env = {
      HERALD_JSON_BODY_LIMIT: "1000",
      HERALD_POSTS_BODY_LIMIT: "2000",
      HERALD_FORM_BODY_LIMIT: "300",
      HERALD_MCP_BODY_LIMIT: "4000",
      HERALD_BATCH_BODY_LIMIT: "5000"
    }
    const { http } = await Effect.runPromise(
      Effect.provideService(loadConfig, ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
    expect(http.bodyLimits).toEqual({ json: 1000, posts: 2000, forms: 300, mcp: 4000, batch: 5000 })
  })

  it("a host with smaller limits refuses accordingly", async () => {
    const small = await startHttpHost(
      {},
      {},
      { bodyLimits: { json: 100, posts: 200, forms: 50, mcp: 300, batch: 400 } }
    )
    try {
      refused(await sendBody(`${small.base}/signup`, { size: 101 }), 100)
      expect((await sendBody(`${small.base}/signup`, { head: '{"email":"', size: 80, tail: '"}' })).status).not.toBe(
        413
      )
      refused(await sendBody(`${small.base}/posts`, { headers: { authorization: "Bearer hrld_x" }, size: 201 }), 200)
      refused(await sendBody(`${small.origin}/signin`, { size: 51 }), 50)
    } finally {
      await small.close()
    }
  })
})
