import { createHash } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SentMail } from "../../adapters/memory/RecordingMailer.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { claim, signUp } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host?.close())

const EVIL = "https://evil.example"

/** The claim link's token from the sign-up mail. */
const claimToken = async (email: string) => {
  const mail = await host.run(Effect.map(SentMail, (s) => s.last(email)))
  return new URL(/https?:\/\/\S+\/claim\?token=\S+/.exec(mail!.text)![0]).searchParams.get("token")!
}

/** Asks for a sign-in link and waits for its mail (it is sent after the answer). */
const signInToken = async (email: string) => {
  const before = await host.run(Effect.map(SentMail, (s) => s.all().length))
  const asked = await fetch(`${host.origin}/signin`, {
    method: "POST",
    body: new URLSearchParams({ email }),
    redirect: "manual"
  })
  expect(asked.status).toBe(200)
  for (let i = 0; i < 200; i++) {
    const mail = await host.run(
      Effect.map(SentMail, (s) =>
        s
          .all()
          .slice(before)
          .find((m) => m.to === email)
      )
    )
    if (mail)
      return new URL(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(mail.text)![0]).searchParams.get("token")!
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error("no sign-in mail")
}

const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${host.origin}${path}`, { method: "POST", body: new URLSearchParams(form), headers, redirect: "manual" })

describe("login CSRF: forms that set a session come from Herald's own pages", () => {
  const crossSite: ReadonlyArray<Record<string, string>> = [
    { origin: EVIL },
    { origin: "null" },
    { "sec-fetch-site": "cross-site" },
    { "sec-fetch-site": "same-site" },
    { referer: `${EVIL}/page` }
  ]

  it("POST /claim from another site is a 403 page, sets no cookie and leaves the link usable", async () => {
    const { email } = await signUp(host)
    const token = await claimToken(email)
    for (const headers of crossSite) {
      const refused = await post("/claim", { token, locale: "en" }, headers)
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(refused.headers.get("set-cookie")).toBeNull()
      expect(await refused.text()).toContain("another site")
    }
    const sameOrigin = await post(
      "/claim",
      { token, locale: "en" },
      { origin: host.origin, "sec-fetch-site": "same-origin" }
    )
    expect(sameOrigin.status).toBe(303)
    expect(sameOrigin.headers.get("set-cookie")).toMatch(/^herald_session=/)
  })

  it("GET /claim shows the form and uses nothing up, however often it is opened", async () => {
    const { email } = await signUp(host)
    const token = await claimToken(email)
    for (let i = 0; i < 3; i++) expect((await fetch(`${host.origin}/claim?token=${token}`)).status).toBe(200)
    expect((await post("/claim", { token, locale: "en" })).status).toBe(303)
  })

  it("the e-mailed sign-in link shows a button and sets nothing; the POST from that page signs in, once", async () => {
    const { email } = await signUp(host)
    await claim(host, email)
    const token = await signInToken(email)
    for (let i = 0; i < 2; i++) {
      const opened = await fetch(`${host.origin}/signin/complete?token=${token}`, {
        redirect: "manual",
        headers: { "sec-fetch-site": "cross-site" }
      })
      expect(opened.status).toBe(200)
      expect(opened.headers.get("set-cookie")).toBeNull()
      const html = await opened.text()
      expect(html).toContain('<form method="post" action="/signin/complete?lang=en">')
      expect(html).toContain(`value="${token}"`)
    }
    for (const headers of crossSite) {
      const refused = await post("/signin/complete", { token }, headers)
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(refused.headers.get("set-cookie")).toBeNull()
    }
    const signedIn = await post("/signin/complete", { token }, { origin: host.origin })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe("/app")
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]
    expect((await fetch(`${host.origin}/app`, { headers: { cookie }, redirect: "manual" })).status).toBe(200)
    expect((await post("/signin/complete", { token }, { origin: host.origin })).status).toBe(400)
  })

  it("sign-in and sign-out forms from another site are refused too", async () => {
    expect((await post("/signin", { email: "someone@herald-customer.org" }, { origin: EVIL })).status).toBe(403)
    expect((await post("/signout", {}, { origin: EVIL })).status).toBe(403)
  })
})

describe("NUL and lone surrogates in page parameters", () => {
  it("the sign-in form answers a 400 page, not a 500", async () => {
    for (const email of ["a\u0000@herald-customer.org", "\u0000"]) {
      const reply = await post("/signin", { email })
      expect(reply.status).toBe(400)
      expect(await reply.text()).toContain("NUL")
    }
  })

  it("the connect callback answers 400 before spending its single-use state", async () => {
    const { key } = await signUp(host)
    const { url } = (await (
      await fetch(`${host.base}/connect/sandbox`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { url: string }
    const { next, cookie } = await continueConnectLink(host.local(url))
    const callback = host.local(next)
    for (const extra of ["&name=%00", "&code=a%00b", "&%00=x"]) {
      const refused = await fetch(callback + extra, { headers: { accept: "application/json", cookie } })
      expect(refused.status, extra).toBe(400)
    }
    const connected = await fetch(callback + "&name=Ann", { headers: { accept: "application/json", cookie } })
    expect(connected.status).toBe(200)
    expect(((await connected.json()) as { account: { name: string } }).account.name).toBe("Ann")
  })

  it("the claim and sign-in links refuse a NUL token without a lookup", async () => {
    expect((await fetch(`${host.origin}/claim?token=%00`)).status).toBe(400)
    expect((await post("/claim", { token: "\u0000" })).status).toBe(400)
    expect((await post("/signin/complete", { token: "a\u0000" })).status).toBe(400)
  })
})

describe("security headers", () => {
  const expectProtected = (response: Response, what: string) => {
    const csp = response.headers.get("content-security-policy")
    expect(csp, what).toContain("frame-ancestors 'none'")
    expect(csp, what).toContain("default-src 'none'")
    expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(response.headers.get("x-frame-options"), what).toBe("DENY")
    expect(response.headers.get("x-content-type-options"), what).toBe("nosniff")
    expect(response.headers.get("referrer-policy"), what).toBe("same-origin")
    return csp!
  }

  it("every page, error page and API answer carries them", async () => {
    const { key, email } = await signUp(host)
    const token = await claimToken(email)
    const pages = [
      `/claim?token=${token}`,
      "/claim?token=nope",
      "/signin",
      "/signin/complete?token=x",
      "/connect/sandbox/callback?state=bad",
      "/app",
      "/api/v1/docs",
      "/api/v1/openapi.json",
      "/api/v1/accounts",
      "/nothing-here",
      "/"
    ]
    for (const path of pages)
      expectProtected(
        await fetch(`${host.origin}${path}`, { headers: { authorization: `Bearer ${key}` }, redirect: "manual" }),
        path
      )
    expectProtected(await post("/signin", { email: "x\u0000" }), "sign-in error page")
  })

  it("the app's pages run only their own script and style files, and nothing inline may run", async () => {
    const { email } = await signUp(host)
    const { cookie } = await claim(host, email)
    for (const path of ["/app", "/app/calendar", "/app/posts", "/app/accounts", "/app/keys", "/app/settings"]) {
      const app = await fetch(`${host.origin}${path}`, { headers: { cookie } })
      const csp = expectProtected(app, path)
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toMatch(/unsafe-inline|sha256-/)
      const html = await app.text()
      // The only inline blocks are the words, the networks offered and the event types, as JSON data, never run.
      expect([...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1])).toEqual([
        ' type="application/json" id="strings"',
        ' type="application/json" id="networks"',
        ' type="application/json" id="event-types"'
      ])
    }
    const script = await fetch(`${host.origin}/app/assets/app.js`)
    expect(script.headers.get("content-type")).toContain("text/javascript")
    const etag = script.headers.get("etag")!
    expect((await fetch(`${host.origin}/app/assets/app.js`, { headers: { "if-none-match": etag } })).status).toBe(304)
    expect((await fetch(`${host.origin}/app/assets/nothing.js`)).status).toBe(404)
    // Without a session the app sends the browser to sign in.
    const anonymous = await fetch(`${host.origin}/app/keys`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get("location")).toBe("/signin")
  })

  it("each view preloads its own modules only, and every module a script imports is served", async () => {
    const { email } = await signUp(host)
    const { cookie } = await claim(host, email)
    const preloads = async (path: string) => {
      const page = await (await fetch(`${host.origin}${path}`, { headers: { cookie } })).text()
      return [...page.matchAll(/<link rel="modulepreload" href="\/app\/assets\/([^"]+)">/g)].map((m) => m[1]!)
    }
    expect(await preloads("/app")).toEqual(["core.mjs", "queue.mjs", "queueCards.mjs", "editParts.mjs"])
    expect(await preloads("/app/calendar")).toEqual(["core.mjs", "calendar.mjs"])
    expect(await preloads("/app/keys")).toEqual(["core.mjs", "keys.mjs"])
    expect(await preloads("/app/compose")).toEqual(["core.mjs"])
    // Walked from app.js through every import (static or on its view), each file answers as JavaScript.
    const seen = new Set<string>()
    const walk = async (name: string): Promise<void> => {
      if (seen.has(name)) return
      seen.add(name)
      const script = await fetch(`${host.origin}/app/assets/${name}`)
      expect([name, script.status, script.headers.get("content-type")]).toEqual([
        name,
        200,
        "text/javascript; charset=utf-8"
      ])
      const imports = (await script.text()).matchAll(/(?:from |import\()"\.\/([\w/.-]+)"/g)
      for (const [, next] of imports) await walk(next!)
    }
    await walk("app.js")
    expect([...seen].sort()).toEqual(
      [
        "app.js",
        "core.mjs",
        "queue.mjs",
        "queueCards.mjs",
        "editParts.mjs",
        "calendar.mjs",
        "history.mjs",
        "figures.mjs",
        "accounts.mjs",
        "keys.mjs",
        "settings.mjs"
      ].sort()
    )
  })

  it("the docs page allows its own inline scripts by hash and loads nothing from elsewhere", async () => {
    const docs = await fetch(`${host.base}/docs`)
    const csp = expectProtected(docs, "/api/v1/docs")
    const html = await docs.text()
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g))
      expect(csp).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`)
    expect(csp).not.toMatch(/https?:/)
  })
})
