import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectSandbox, signUp } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"

/*
 * POST /api/v1/posts is answered in front of the router (hosts/http/fastPaths.ts). The same requests,
 * sent to a host with the fast path and to one without, must get the same answers: status, the
 * headers the spec ties to them, and the body (ids and times aside, which differ by nature).
 */

let fast: HttpHost
let routerOnly: HttpHost
const taken: Array<boolean> = []

beforeAll(async () => {
  fast = await startHttpHost({}, { onFastPath: (t) => taken.push(t) })
  routerOnly = await startHttpHost({}, { fastPaths: false })
})
afterAll(async () => {
  await fast.close()
  await routerOnly.close()
})

interface Sent {
  readonly body?: string
  readonly headers?: Record<string, string>
  /** Authorization header; "key" stands for the host's own key. */
  readonly auth?: string
}

const normalise = (text: string) =>
  text
    .replace(/\b([a-z]+)_[0-9A-HJKMNP-TV-Z]{26}\b/g, "$1_<id>")
    .replace(/\b(req)_[0-9a-z]+\b/g, "$1_<id>")
    .replace(/"username":"[^"]*"/g, '"username":"<name>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")

const send = async (host: HttpHost, key: string, accountId: string, request: Sent) => {
  const headers: Record<string, string> = { "content-type": "application/json", ...request.headers }
  const auth = request.auth ?? "key"
  const authorization: Record<string, string> = {
    key: `Bearer ${key}`,
    KEY_WITH_SPACES: `Bearer   ${key}`,
    KEY_LOWER_CASE: `bearer ${key}`,
    KEY_AFTER_TAB: `Bearer\t${key}`
  }
  if (auth !== "") headers.authorization = authorization[auth] ?? auth
  const response = await fetch(`${host.base}/posts`, {
    method: "POST",
    headers,
    body: (request.body ?? "").replaceAll("ACCOUNT", accountId)
  })
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    wwwAuthenticate: response.headers.get("www-authenticate"),
    retryAfter: response.headers.get("retry-after"),
    security: ["x-content-type-options", "x-frame-options", "referrer-policy", "content-security-policy"].map((name) =>
      response.headers.get(name)
    ),
    body: normalise(await response.text()).replaceAll(accountId, "<account>")
  }
}

const inAnHour = new Date(Date.now() + 3_600_000).toISOString()
const post = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ accountIds: ["ACCOUNT"], content: "hello", scheduledFor: inAnHour, ...fields })

/** Requests the fast path takes, in order (the idempotency ones depend on the ones before). */
const taken_cases: ReadonlyArray<[string, Sent]> = [
  ["a scheduled post", { body: post() }],
  ["a post to publish now", { body: post({ scheduledFor: undefined }) }],
  ["a dry run", { body: post({ dryRun: true }) }],
  ["a charset in the content type", { body: post(), headers: { "content-type": "application/json; charset=utf-8" } }],
  ["an unknown key", { auth: "Bearer hrld_" + "x".repeat(43), body: post() }],
  ["a key with another prefix", { auth: "Bearer nope_123", body: post() }],
  ["spaces before the key", { auth: "KEY_WITH_SPACES", body: post() }],
  ["the scheme in lower case", { auth: "KEY_LOWER_CASE", body: post({ content: "lower" }) }],
  ["malformed JSON", { body: '{"accountIds": [' }],
  ["JSON that is not an object", { body: "[1, 2]" }],
  ["JSON null", { body: "null" }],
  ["a field of the wrong type", { body: post({ content: 5 }) }],
  ["accountIds not an array", { body: JSON.stringify({ accountIds: "ACCOUNT", content: "x" }) }],
  ["an unknown field", { body: post({ colour: "blue" }) }],
  ["an unknown account", { body: JSON.stringify({ accountIds: ["acc_nope"], content: "x" }) }],
  ["a time in the past", { body: post({ scheduledFor: "2020-01-01T00:00:00Z" }) }],
  ["a time without an offset", { body: post({ scheduledFor: "2030-01-01T00:00:00" }) }],
  ["content over the network's limit", { body: post({ content: "x".repeat(70_000) }) }],
  ["an idempotent create", { body: post({ content: "once" }), headers: { "idempotency-key": "k-1" } }],
  ["its replay", { body: post({ content: "once" }), headers: { "idempotency-key": "k-1" } }],
  ["the key reused with another body", { body: post({ content: "twice" }), headers: { "idempotency-key": "k-1" } }],
  ["an over-long idempotency key", { body: post(), headers: { "idempotency-key": "k".repeat(300) } }]
]

/** Requests it leaves to the router. */
const declined_cases: ReadonlyArray<[string, Sent]> = [
  ["another content type", { body: post(), headers: { "content-type": "text/plain" } }],
  ["no credentials", { auth: "", body: post() }],
  ["another scheme", { auth: "Basic dXNlcjpwYXNz", body: post() }],
  ["a scheme without a key", { auth: "Bearer   ", body: post() }],
  ["a tab before the key", { auth: "KEY_AFTER_TAB", body: post() }],
  ["an empty body", { body: "" }],
  ["a session cookie", { body: post(), headers: { cookie: "herald_session=abc" } }]
]

describe("the POST /posts fast path", () => {
  it("answers every request exactly as the router does", async () => {
    const setUp = async (host: HttpHost) => {
      const { key } = await signUp(host)
      return { key, accountId: await connectSandbox(host, key) }
    }
    const [a, b] = [await setUp(fast), await setUp(routerOnly)]
    const statuses = new Set<number>()
    for (const [name, request] of taken_cases) {
      taken.length = 0
      const viaFast = await send(fast, a.key, a.accountId, request)
      expect(taken, name).toEqual([true])
      const viaRouter = await send(routerOnly, b.key, b.accountId, request)
      expect(viaFast, name).toEqual(viaRouter)
      statuses.add(viaFast.status)
    }
    // The cases reach every kind of answer: created, replayed or dry run, and each class of error.
    expect([...statuses].sort()).toEqual([200, 201, 400, 401, 404, 422])
    for (const [name, request] of declined_cases) {
      taken.length = 0
      const viaFast = await send(fast, a.key, a.accountId, request)
      expect(taken, name).toEqual([false])
      expect(viaFast, name).toEqual(await send(routerOnly, b.key, b.accountId, request))
    }
  })

  it("leaves other routes and methods to the router", async () => {
    const { key } = await signUp(fast)
    taken.length = 0
    await fetch(`${fast.base}/posts`, { headers: { authorization: `Bearer ${key}` } })
    await fetch(`${fast.base}/posts?dryRun=true`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: post()
    })
    await fetch(`${fast.base}/posts/bulk-approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{}"
    })
    expect(taken).toEqual([false, false, false])
  })
})
