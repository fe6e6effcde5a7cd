import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { storeCredentials } from "../../application/usecases/credentials.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { claim, connectSandbox, signUp } from "../support/flows.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host?.close())

/** A request as the app makes it: the session cookie, and the CSRF header on changes. */
const asPerson = (session: { cookie: string; csrf: string }, method: string, path: string, body?: unknown) =>
  fetch(`${host.base}${path}`, {
    method,
    headers: {
      cookie: session.cookie,
      "x-csrf-token": session.csrf,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    body: body === undefined ? undefined : JSON.stringify(body)
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

describe("the app's own endpoints", () => {
  it("account grants: when an account can post until, for signed-in people only", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const session = await claim(host, email)
    expect((await asPerson(session, "GET", "/account-grants")).body).toEqual({ grants: [{ accountId, endsAt: null }] })
    // A grant nothing can renew ends with its access token.
    const end = Date.UTC(2031, 0, 2, 3, 4, 5)
    await host.run(storeCredentials(accountId, { accessToken: "t", refreshToken: null, expiresAt: end }))
    expect((await asPerson(session, "GET", "/account-grants")).body).toEqual({
      grants: [{ accountId, endsAt: "2031-01-02T03:04:05.000Z" }]
    })
    expect((await call(host, "GET", "/account-grants", { key })).status).toBe(403)
  })

  it("workspace settings are checked field by field, and a key cannot read them", async () => {
    const { email, key } = await signUp(host)
    const session = await claim(host, email)
    const bad = await asPerson(session, "PATCH", "/workspace", {
      locale: "fr",
      timeZone: "Mars/Olympus",
      approvalMail: "sometimes"
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.fields).toEqual(["locale", "timeZone", "approvalMail"])
    const good = await asPerson(session, "PATCH", "/workspace", { timeZone: "America/New_York" })
    expect(good.body.workspace).toMatchObject({ timeZone: "America/New_York", locale: "en", approvalMail: "each" })
    expect((await call(host, "GET", "/workspace", { key })).status).toBe(403)
    // Without the CSRF header a change is refused.
    const forged = await fetch(`${host.base}/workspace`, {
      method: "PATCH",
      headers: { cookie: session.cookie, "content-type": "application/json" },
      body: "{}"
    })
    expect(forged.status).toBe(403)
  })

  it("a reject reason longer than 1000 characters is refused with the field named", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const session = await claim(host, email)
    const post = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "x" } })
    const refused = await asPerson(session, "POST", `/posts/${post.body.post.id}/reject`, { reason: "r".repeat(1001) })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details.fields).toEqual(["reason"])
    expect((await asPerson(session, "POST", `/posts/${post.body.post.id}/reject`, { reason: "ok" })).status).toBe(200)
  })
})
