import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultLimits } from "../../application/config.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { claim, signUp, uniqueEmail } from "../support/flows.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const expectEnvelope = (body: any, code: string) => {
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe("string")
  expect(typeof body.error.hint).toBe("string")
  expect(typeof body.error.retryable).toBe("boolean")
}

describe("POST /signup", () => {
  it("201: workspace, asks-first key shown once, claim e-mail sent, link never returned", async () => {
    const { body } = await signUp(host)
    expect(body.apiKey).toMatch(/^hrld_[0-9A-Za-z]{43}$/)
    expect(body.key).toMatchObject({ name: "Test agent", requireApproval: true, prefix: body.apiKey.slice(5, 13) })
    expect(body.workspace).toMatchObject({ plan: "free", claimed: false })
    expect(body.workspace.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(body.claimSent).toBe(true)
    expect(body.next.length).toBeGreaterThan(2)
    expect(JSON.stringify(body)).not.toContain("token=")
  })

  it("202 for an address that already has a workspace: nothing new, apiKey null", async () => {
    const { email } = await signUp(host)
    const again = await call(host, "POST", "/signup", { body: { email } })
    expect(again.status).toBe(202)
    expect(again.body.apiKey).toBeNull()
    expect(again.body.delivery).toContain("already has a workspace")
  })

  it("delivery follows locale, then Accept-Language", async () => {
    const ja = await call(host, "POST", "/signup", { body: { email: uniqueEmail(), locale: "ja" } })
    expect(ja.body.delivery).toMatch(/メール/)
    const viaHeader = await call(host, "POST", "/signup", {
      body: { email: uniqueEmail() },
      headers: { "accept-language": "fr;q=0.9, ja;q=0.8" }
    })
    expect(viaHeader.body.delivery).toMatch(/メール/)
    const english = await call(host, "POST", "/signup", {
      body: { email: uniqueEmail() },
      headers: { "accept-language": "de" }
    })
    expect(english.body.delivery).toMatch(/^We e-mailed/)
  })

  it.each([
    [{ workspaceName: "x" }, "validation_failed", ["email"]],
    [{ email: "ann@herald-customer.org", agentName: "bad\u202ename" }, "validation_failed", ["agentName"]],
    [{ email: "ann@herald-customer.org", workspaceName: "tab\there" }, "validation_failed", ["workspaceName"]],
    [{ email: "not-an-address" }, "validation_failed", ["email"]],
    [{ email: "someone@example.com" }, "email_not_allowed", ["email"]],
    [{ email: "bot@mailinator.com" }, "email_not_allowed", ["email"]],
    [{ email: "yourname@company.io" }, "email_not_allowed", ["email"]]
  ])("400 for %j", async (body, code, fields) => {
    const reply = await call(host, "POST", "/signup", { body })
    expect(reply.status).toBe(400)
    expectEnvelope(reply.body, code)
    expect(reply.body.error.details.fields).toEqual(fields)
  })

  it("400 invalid_json for a body that is not JSON", async () => {
    const reply = await call(host, "POST", "/signup", { raw: "{not json" })
    expect(reply.status).toBe(400)
    expectEnvelope(reply.body, "invalid_json")
  })

  it("is the only endpoint without authentication: 401 with WWW-Authenticate elsewhere", async () => {
    for (const [method, path] of [
      ["GET", "/accounts"],
      ["GET", "/posts"],
      ["POST", "/posts"],
      ["POST", "/claim-link"],
      ["GET", "/connect/sandbox"]
    ]) {
      const reply = await call(host, method, path, { body: method === "POST" ? {} : undefined })
      expect(reply.status, `${method} ${path}`).toBe(401)
      expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer/)
      expectEnvelope(reply.body, "unauthorized")
    }
    const wrong = await call(host, "GET", "/accounts", { key: "hrld_wrong" })
    expect(wrong.status).toBe(401)
  })
})

describe("sign-up limits", () => {
  it("429 rate_limited with Retry-After per network address", async () => {
    const limited = await startHttpHost({ limits: { ...defaultLimits, signupPerIpPerHour: 2 } })
    try {
      for (let i = 0; i < 2; i++)
        expect((await call(limited, "POST", "/signup", { body: { email: uniqueEmail() } })).status).toBe(201)
      const third = await call(limited, "POST", "/signup", { body: { email: uniqueEmail() } })
      expect(third.status).toBe(429)
      expectEnvelope(third.body, "rate_limited")
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(third.body.error.details.retryAfterSeconds).toBe(Number(third.headers.get("retry-after")))
    } finally {
      await limited.close()
    }
  })

  it("429 per e-mail address", async () => {
    const limited = await startHttpHost({
      limits: { ...defaultLimits, signupPerIpPerHour: 100, signupPerEmailPerDay: 1 }
    })
    try {
      const email = uniqueEmail()
      expect((await call(limited, "POST", "/signup", { body: { email } })).status).toBe(201)
      expect((await call(limited, "POST", "/signup", { body: { email } })).status).toBe(429)
    } finally {
      await limited.close()
    }
  })

  it("503 signup_capacity when the daily cap is reached", async () => {
    const capped = await startHttpHost({ limits: { ...defaultLimits, signupPerIpPerHour: 100, signupsPerDay: 1 } })
    try {
      expect((await call(capped, "POST", "/signup", { body: { email: uniqueEmail() } })).status).toBe(201)
      const second = await call(capped, "POST", "/signup", { body: { email: uniqueEmail() } })
      expect(second.status).toBe(503)
      expectEnvelope(second.body, "signup_capacity")
      expect(second.body.error.retryable).toBe(true)
    } finally {
      await capped.close()
    }
  })

  it("403 agent_signup_closed when turned off", async () => {
    const closed = await startHttpHost({ signupEnabled: false })
    try {
      const reply = await call(closed, "POST", "/signup", { body: { email: uniqueEmail() } })
      expect(reply.status).toBe(403)
      expectEnvelope(reply.body, "agent_signup_closed")
    } finally {
      await closed.close()
    }
  })
})

describe("claiming", () => {
  it("POST /claim-link e-mails a fresh link; claiming signs the owner in; a claimed workspace refuses new links", async () => {
    const { email, key } = await signUp(host)
    const link = await call(host, "POST", "/claim-link", { key })
    expect(link.status).toBe(200)
    expect(link.body.claimSent).toBe(true)
    expect(JSON.stringify(link.body)).not.toContain("token=")
    const { cookie } = await claim(host, email)
    expect(cookie).toMatch(/^herald_session=/)
    const again = await call(host, "POST", "/claim-link", { key })
    expect(again.status).toBe(409)
    expectEnvelope(again.body, "already_claimed")
  })
})
