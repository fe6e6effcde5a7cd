import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { addAccount, claim, connectSandbox, signUp, uniqueEmail } from "../support/flows.ts"

// The composer's server side: its files, and the advice it asks for as a person types (test/web/compose.test.ts drives the page).

describe("the composer's files and advice", () => {
  let host: HttpHost
  beforeAll(async () => {
    host = await startHttpHost()
  })
  afterAll(() => host?.close())

  it("the composer's files: Preact from this origin, cached for good; the page's policy runs only this origin's scripts", async () => {
    const vendor = await fetch(`${host.origin}/app/assets/vendor/preact-htm-3.1.1.mjs`)
    expect(vendor.status).toBe(200)
    expect(vendor.headers.get("cache-control")).toContain("immutable")
    expect(vendor.headers.get("content-type")).toContain("text/javascript")
    expect(await vendor.text()).toContain("useState")
    expect((await fetch(`${host.origin}/app/assets/vendor/preact-htm-0.0.0.mjs`)).status).toBe(404)
    const signedOut = await fetch(`${host.origin}/app/compose`, { redirect: "manual" })
    expect(signedOut.status).toBe(303)
    // The advice is the people's app's: an agent's key is told so.
    const { body } = await call(host, "POST", "/signup", { body: { email: uniqueEmail(), agentName: "Agent" } })
    const advice = await call(host, "POST", "/compose/advice", {
      key: body.apiKey,
      body: { accountIds: ["acc_x"], content: "Hi" }
    })
    expect(advice.status).toBe(403)
    expect(advice.body.error.code).toBe("approval_requires_human")
  })

  it("the advice: a refusal of the whole post is said once, by its field; a target's own refusal at that target", async () => {
    const { email, key, workspaceId } = await signUp(host)
    const sandbox = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const x = await addAccount(host, workspaceId, "x")
    const advise = (body: unknown) =>
      call(host, "POST", "/compose/advice", { cookie, headers: { "x-csrf-token": csrf }, body })
    const past = await advise({
      accountIds: [sandbox, x],
      content: "Hi",
      scheduledFor: "2020-01-01T00:00:00Z"
    })
    expect(past.status).toBe(200)
    expect(past.body.error.code).toBe("scheduled_in_past")
    expect(past.body.targets.map((t: any) => [t.ok, t.error])).toEqual([
      [false, null],
      [false, null]
    ])
    const long = await advise({ accountIds: [sandbox, x], content: "a".repeat(300) })
    expect(long.body.error).toBeNull()
    expect(long.body.targets.map((t: any) => [t.platform, t.ok, t.length.used, t.error?.code ?? null])).toEqual([
      ["sandbox", true, 300, null],
      ["x", false, 300, "validation_failed"]
    ])
    // Nothing was stored: the advice is a dry run.
    expect((await call(host, "GET", "/posts", { key })).body.posts).toEqual([])
  })

  it("the advice shows each target's preview by the approval card's rules: the text cut at its network's limit, its thread and first comment only where taken", async () => {
    const { email, key, workspaceId } = await signUp(host)
    const sandbox = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const x = await addAccount(host, workspaceId, "x")
    const facebook = await addAccount(host, workspaceId, "facebook")
    const advice = await call(host, "POST", "/compose/advice", {
      cookie,
      headers: { "x-csrf-token": csrf },
      body: {
        accountIds: [sandbox, x, facebook],
        content: "a".repeat(300),
        thread: ["Reply one", "  "],
        firstComment: "More at example.org",
        overrides: { sandbox: { content: "Sandbox's own" } }
      }
    })
    expect(advice.status).toBe(200)
    const byPlatform = Object.fromEntries(advice.body.targets.map((t: any) => [t.platform, t.preview]))
    expect(byPlatform.sandbox.text).toEqual({ length: 13, limit: 10000, fits: true, shown: "Sandbox's own", rest: "" })
    expect(byPlatform.x.text).toMatchObject({
      length: 300,
      limit: 280,
      fits: false,
      shown: "a".repeat(280),
      rest: "a".repeat(20)
    })
    // Blank replies are dropped; a network that takes no thread shows none.
    expect(byPlatform.x.thread.map((r: any) => r.shown)).toEqual(["Reply one"])
    expect(byPlatform.facebook.thread).toEqual([])
    expect(byPlatform.facebook.firstComment.shown).toBe("More at example.org")
  })
})
