import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claim, connectSandbox, signUp } from "../../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../../support/httpHost.ts"
import { type FakePinterest, startFakePinterest } from "./fakePinterest.ts"
import { continueConnectLink } from "../../support/connectLink.ts"

/** GET /accounts/{id}/boards on the HTTP host: Pinterest's boards for a Pinterest account, the envelope's codes otherwise. */
describe("GET /accounts/{id}/boards", () => {
  let fake: FakePinterest
  let host: HttpHost
  let key = ""

  beforeAll(async () => {
    fake = await startFakePinterest()
    Object.assign(process.env, {
      PINTEREST_CLIENT_ID: fake.clientId,
      PINTEREST_CLIENT_SECRET: fake.clientSecret,
      PINTEREST_AUTHORIZE_URL: fake.authorizeUrl,
      PINTEREST_TOKEN_URL: fake.tokenUrl,
      PINTEREST_API_URL: fake.origin
    })
    delete process.env.HERALD_TEST_BACKEND
    host = await startHttpHost()
    const { email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    key = (
      await call(host, "POST", "/keys", {
        cookie,
        headers: { "x-csrf-token": csrf },
        body: { name: "Pins", requireApproval: false }
      })
    ).body.apiKey
  }, 60_000)
  afterAll(async () => {
    await host?.close()
    await fake?.close()
  })

  it("lists a Pinterest account's boards; another network's account is boards_unsupported; an unknown id is account_not_found; a revoked grant needs reconnection", async () => {
    const link = await call(host, "GET", "/connect/pinterest", { key })
    const { next, cookie } = await continueConnectLink(host.local(link.body.url))
    const atPinterest = await fetch(next, { redirect: "manual" })
    const back = await fetch(host.local(atPinterest.headers.get("location")!), {
      headers: { accept: "application/json", cookie }
    })
    const { account } = (await back.json()) as any
    const boards = await call(host, "GET", `/accounts/${account.id}/boards`, { key })
    expect(boards.status).toBe(200)
    expect(boards.body.boards[0]).toEqual({
      id: "549755885175",
      name: "Recipes",
      description: "Things to cook",
      privacy: "PUBLIC"
    })
    const sandbox = await call(host, "GET", `/accounts/${await connectSandbox(host, key)}/boards`, { key })
    expect(sandbox.status).toBe(400)
    expect(sandbox.body.error).toMatchObject({ code: "boards_unsupported", details: { platform: "sandbox" } })
    const unknown = await call(host, "GET", "/accounts/acc_01NOSUCHACCOUNT0000000000/boards", { key })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("account_not_found")
    expect((await call(host, "GET", `/accounts/${account.id}/boards`)).status).toBe(401)
    fake.revoke("p-alice")
    const revoked = await call(host, "GET", `/accounts/${account.id}/boards`, { key })
    expect(revoked.status).toBe(409)
    expect(revoked.body.error.code).toBe("account_needs_reconnection")
  })
})
