import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claim, signUp } from "../support/flows.ts"
import { call, type HttpHost, type Reply, startHttpHost } from "../support/httpHost.ts"

/*
 * REST (the router and the fast path) and /mcp count every request of a key against the key's and its
 * workspace's limits (application/requestLimiter.ts). Limits here: 4 a minute per key, 6 per workspace.
 */

const MINUTE = 60_000
let host: HttpHost
const taken: Array<boolean> = []

beforeAll(async () => {
  host = await startHttpHost(
    { requestLimits: { perKeyPerMinute: 4, perWorkspacePerMinute: 6, leasePercent: 10 } },
    { onFastPath: (t) => taken.push(t) }
  )
})
afterAll(() => host.close())

/**
 * Runs a scenario (on workspaces of its own) until one run fits in one minute: the counts start
 * again at each minute, so a run across a minute's edge proves nothing either way. No waiting.
 */
const inOneMinute = async (scenario: () => Promise<void>) => {
  for (let run = 1; ; run++) {
    const minute = Math.floor(Date.now() / MINUTE)
    const failure = await scenario().then(
      () => undefined,
      (error: unknown) => ({ error })
    )
    if (Math.floor(Date.now() / MINUTE) === minute || run === 3) {
      if (failure) throw failure.error
      return
    }
  }
}

const expectLimited = (reply: Reply | { status: number; headers: Headers; body: any }, scope: "key" | "workspace") => {
  expect(reply.status).toBe(429)
  expect(reply.body.error).toMatchObject({
    code: "rate_limited",
    retryable: true,
    details: { scope, windowSeconds: 60 }
  })
  const seconds = reply.body.error.details.retryAfterSeconds
  expect(seconds).toBeGreaterThanOrEqual(1)
  expect(seconds).toBeLessThanOrEqual(60)
  expect(reply.headers.get("retry-after")).toBe(String(seconds))
}

const accounts = (options: { key?: string; cookie?: string }) => call(host, "GET", "/accounts", options)

describe("request limits", () => {
  it("REST: a key's 5th request of a minute is 429; the workspace's budget is shared by its keys and people", async () => {
    await inOneMinute(async () => {
      const owner = await signUp(host)
      const session = await claim(host, owner.email)
      const second = await call(host, "POST", "/keys", {
        cookie: session.cookie,
        headers: { "x-csrf-token": session.csrf },
        body: { name: "second" }
      })
      expect(second.status).toBe(201) // the workspace's 1st request
      for (let i = 0; i < 4; i++) expect((await accounts({ key: owner.key })).status).toBe(200)
      const limited = await accounts({ key: owner.key })
      expectLimited(limited, "key")
      expect(limited.body.error.details.limit).toBe(4)
      // The refused request took nothing from the workspace: 5 of its 6 are spent, one is left.
      expect((await accounts({ key: second.body.apiKey })).status).toBe(200)
      expectLimited(await accounts({ key: second.body.apiKey }), "workspace")
      expectLimited(await accounts({ cookie: session.cookie }), "workspace")
      // Another workspace is not slowed by this one.
      expect((await accounts({ key: (await signUp(host)).key })).status).toBe(200)
    })
  })

  it("the fast path (POST /posts) counts against the same budget and answers 429 as the router does", async () => {
    await inOneMinute(async () => {
      const { key } = await signUp(host)
      const posts = async () => {
        const before = taken.length
        const reply = await call(host, "POST", "/posts", { key, body: { accountIds: [], content: "x" } })
        expect(taken.slice(before)).toEqual([true])
        return reply
      }
      expect((await posts()).status).toBe(400) // counted, though refused for its body
      expect((await accounts({ key })).status).toBe(200)
      expect((await posts()).status).toBe(400)
      expect((await accounts({ key })).status).toBe(200)
      const fast = await posts()
      expectLimited(fast, "key")
      const router = await accounts({ key })
      expectLimited(router, "key")
      expect(fast.body.error.message).toBe(router.body.error.message)
    })
  })

  it("authentication failures cost no key anything", async () => {
    await inOneMinute(async () => {
      const owner = await signUp(host)
      const session = await claim(host, owner.email)
      const revoked = await call(host, "POST", "/keys", {
        cookie: session.cookie,
        headers: { "x-csrf-token": session.csrf },
        body: { name: "to revoke" }
      })
      const revoke = await call(host, "POST", `/keys/${revoked.body.key.id}/revoke`, {
        cookie: session.cookie,
        headers: { "x-csrf-token": session.csrf }
      })
      expect(revoke.status).toBe(200) // the workspace's 2nd request
      const wrongKeys = [revoked.body.apiKey, `${owner.key.slice(0, -4)}AAAA`, "hrld_nope", owner.key.slice(5)]
      for (const wrong of wrongKeys) {
        expect((await accounts({ key: wrong })).status).toBe(401)
        expect(
          (await call(host, "POST", "/posts", { key: wrong, body: { accountIds: [], content: "x" } })).status
        ).toBe(401)
      }
      for (let i = 0; i < 4; i++) expect((await accounts({ key: owner.key })).status).toBe(200)
      expectLimited(await accounts({ key: owner.key }), "key")
    })
  })

  it("MCP: each call counts, a batch counts each message; over the limit is 429 with Retry-After", async () => {
    await inOneMinute(async () => {
      const { key } = await signUp(host)
      const rpc = async (body: unknown, withKey = true) => {
        const response = await fetch(`${host.origin}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(withKey ? { authorization: `Bearer ${key}` } : {})
          },
          body: JSON.stringify(body)
        })
        const text = await response.text()
        return { status: response.status, headers: response.headers, body: JSON.parse(text) }
      }
      const listAccounts = (id: number) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "list_accounts", arguments: {} }
      })
      const first = await rpc(listAccounts(1))
      expect(first.status).toBe(200)
      expect(first.body.result.structuredContent).toEqual({ accounts: [] })
      // Without a key (sign_up's way in), nothing is counted against this key.
      expect((await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" }, false)).status).toBe(200)
      expect((await rpc([listAccounts(3), listAccounts(4)])).status).toBe(200)
      expect((await accounts({ key })).status).toBe(200)
      expectLimited(await rpc(listAccounts(5)), "key")
      expectLimited(await accounts({ key }), "key")
    })
  })
})
