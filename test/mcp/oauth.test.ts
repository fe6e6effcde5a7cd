import { continueConnectLink } from "../support/connectLink.ts"
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as HttpClientDocuments from "../../adapters/webhooks/HttpClientDocuments.ts"
import { findClient } from "../../application/usecases/oauth/clients.ts"
import { claim, signUp, uniqueEmail } from "../support/flows.ts"
import { freePort } from "../support/freePort.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { chromiumAvailable, claimInBrowser, expectAccessible, launch, mailTo } from "../web/browser.ts"
import { ok } from "./client.ts"
import { loopbackServer, MemoryProvider } from "./oauthClient.ts"

// Herald's MCP endpoint as an OAuth 2.1 protected resource, driven by the official SDK client's OAuth
// support against a listening Herald whose public URL is its own address, with a person in Chromium.

let host: HttpHost
let callback: Awaited<ReturnType<typeof loopbackServer>>
let browser: Browser | undefined

beforeAll(async () => {
  const port = await freePort()
  host = await startHttpHost({ publicUrl: `http://127.0.0.1:${port}` }, { port })
  callback = await loopbackServer(() => ({
    status: 200,
    type: "text/html",
    body: "<p>You can go back to your assistant.</p>"
  }))
  if (chromiumAvailable) browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await callback.close()
  await host.close()
})

const mcpUrl = () => new URL(`${host.origin}/mcp`)
const redirectUri = () => `${callback.origin}/callback`

/** A fresh SDK client on the provider; connecting needs no token (initialize is open, for sign_up). */
const connectWith = async (provider: MemoryProvider) => {
  const client = new Client({ name: "scripted-assistant", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })
  await client.connect(transport)
  return { client, transport }
}

/** The person allows (or denies) on the consent page; the browser lands on the client's redirect URI. */
const consentInBrowser = async (page: Page, mode: "asks-first" | "may-publish" = "asks-first") => {
  await page.getByRole("radio", { name: mode === "asks-first" ? /asks first/ : /may publish/ }).check()
  await page.getByRole("button", { name: "Allow" }).click()
  await page.waitForURL(`${redirectUri()}**`)
  return new URL(page.url())
}

const sessionOf = async (context: BrowserContext) => {
  const cookie = (await context.cookies()).find((c) => c.name === "herald_session")!
  const app = await fetch(`${host.origin}/app`, { headers: { cookie: `herald_session=${cookie.value}` } })
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await app.text())![1]!
  return { cookie: `herald_session=${cookie.value}`, csrf }
}

const connectSandboxOverMcp = async (client: Client) => {
  const { url } = await ok(client, "connect_account", { platform: "sandbox" })
  const { next, cookie } = await continueConnectLink(host.local(url))
  const done = await fetch(host.local(next), { headers: { accept: "application/json", cookie } })
  return ((await done.json()) as { account: { id: string } }).account.id
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields)
})

describe("discovery", () => {
  it("a bare 401 names the resource metadata, which names Herald's authorization server and its metadata", async () => {
    const bare = await fetch(mcpUrl(), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_posts", arguments: {} }
      })
    })
    expect(bare.status).toBe(401)
    const challenge = bare.headers.get("www-authenticate")!
    expect(challenge).toMatch(/^Bearer /)
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!
    expect(metadataUrl).toBe(`${host.origin}/.well-known/oauth-protected-resource/mcp`)

    const resource = (await (await fetch(metadataUrl)).json()) as any
    expect(resource).toMatchObject({ resource: `${host.origin}/mcp`, authorization_servers: [host.origin] })
    const server = await fetch(`${host.origin}/.well-known/oauth-authorization-server`)
    expect(server.headers.get("access-control-allow-origin")).toBe("*")
    expect(await server.json()).toMatchObject({
      issuer: host.origin,
      authorization_endpoint: `${host.origin}/oauth/authorize`,
      token_endpoint: `${host.origin}/oauth/token`,
      registration_endpoint: `${host.origin}/oauth/register`,
      revocation_endpoint: `${host.origin}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true
    })
    // A wrong token is invalid_token, still pointing at the metadata.
    const wrong = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: "Bearer hrld_at_nothing", "content-type": "application/json" },
      body: "{}"
    })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get("www-authenticate")).toMatch(
      /resource_metadata=".*", scope="herald", error="invalid_token"/
    )
  })
})

describe.skipIf(!chromiumAvailable)("a person connects an assistant in Chromium", () => {
  it("an MCP client knowing only the URL signs up, is consented to, posts (waiting for approval) and learns the decision", async () => {
    const provider = new MemoryProvider(redirectUri(), "Scripted assistant")
    const { client, transport } = await connectWith(provider)
    // Before authorization a connector already lists every tool (calling one is what asks for authorization).
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("create_post")
    // No account yet: sign_up works without authorization, and the person claims the workspace.
    const email = uniqueEmail()
    const signed = await client.callTool({ name: "sign_up", arguments: { email, agentName: "Scripted assistant" } })
    expect(signed.isError).toBeFalsy()
    const context = await browser!.newContext()
    const page = await context.newPage()
    await claimInBrowser(host, page, email)

    // A call that needs authorization: the 401 starts discovery, registration (DCR) and the authorization request.
    await expect(client.callTool({ name: "list_accounts", arguments: {} })).rejects.toThrow(UnauthorizedError)
    const authorization = provider.redirected!
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${host.origin}/oauth/authorize`)
    expect(authorization.searchParams.get("client_id")).toMatch(/^cli_/)
    expect(authorization.searchParams.get("resource")).toBe(`${host.origin}/mcp`)
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")

    // The person, signed in from the claim, sees who asks and for which workspace, and allows (asks-first).
    await page.goto(authorization.toString())
    expect(await page.locator("#client-name").textContent()).toBe("Scripted assistant")
    expect(await page.textContent("body")).toMatch(/own claim/)
    expect(await page.getByRole("radio", { name: /asks first/ }).isChecked()).toBe(true)
    await expectAccessible(page)
    const back = await consentInBrowser(page, "asks-first")
    expect(back.searchParams.get("iss")).toBe(host.origin)
    expect(back.searchParams.get("state")).toBe("state-123")
    await transport.finishAuth(back.searchParams.get("code")!)
    expect(provider.tokens()?.access_token).toMatch(/^hrld_at_/)
    await client.close()

    // With the token: every tool, a post that waits for the person, and the decision learned by waiting.
    const { client: authed } = await connectWith(provider)
    const names = (await authed.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(["create_post", "wait_for_post", "list_accounts"]))
    const accountId = await connectSandboxOverMcp(authed)
    const { post } = await ok(authed, "create_post", {
      accountIds: [accountId],
      content: "Hello from an assistant connected with OAuth",
      scheduledFor: new Date(Date.now() + 3_600_000).toISOString()
    })
    expect(post.status).toBe("needs_approval")
    expect(post.createdBy).toMatchObject({ kind: "key", name: "Scripted assistant" })
    expect(post.createdBy.id).toMatch(/^grt_/)

    const { cookie, csrf } = await sessionOf(context)
    const waiting = ok(authed, "wait_for_post", { postId: post.id, waitSeconds: 20 })
    const approved = await call(host, "POST", `/posts/${post.id}/approve`, {
      cookie,
      headers: { "x-csrf-token": csrf }
    })
    expect(approved.status).toBe(200)
    expect(await waiting).toMatchObject({ settled: true, status: "scheduled" })

    // The connection is listed beside the keys, and revoking it there stops the token.
    const keys = await call(host, "GET", "/keys", { cookie })
    expect(keys.body.connections).toEqual([
      expect.objectContaining({
        id: post.createdBy.id,
        clientName: "Scripted assistant",
        requireApproval: true,
        revokedAt: null
      })
    ])
    expect(keys.body.connections[0].lastUsedAt).not.toBeNull()
    // In the app: the connection is a row beside the keys, in the client's own words, and is revoked there.
    page.on("dialog", (dialog) => dialog.accept())
    await page.goto(`${host.origin}/app/keys`)
    // (The key sign_up made bears the same name: the row is found by the connection's id.)
    const row = page.locator(`#keys li[data-id="${post.createdBy.id}"]`)
    expect(await row.textContent()).toContain("client says it is \u201cScripted assistant\u201d")
    expect(await row.textContent()).toContain("asks first")
    await row.getByRole("button", { name: "Revoke Scripted assistant" }).click()
    await row.getByText(/revoked/).waitFor()
    expect((await call(host, "GET", "/keys", { cookie })).body.connections[0].revokedAt).not.toBeNull()
    // The SDK tries its refresh token (refused: the grant is gone), then asks the person again.
    await expect(authed.callTool({ name: "list_accounts", arguments: {} })).rejects.toThrow(UnauthorizedError)
    await authed.close()
    await context.close()
  }, 120_000)

  it("a client by metadata document; the person signs in by e-mail link and lets it publish; refresh rotates", async () => {
    const doc = await loopbackServer((path) =>
      path === "/client.json"
        ? {
            status: 200,
            type: "application/json",
            body: JSON.stringify({
              client_id: `${docOrigin}/client.json`,
              client_name: "Document client",
              redirect_uris: [redirectUri()],
              token_endpoint_auth_method: "none"
            })
          }
        : { status: 404, type: "text/plain", body: "" }
    )
    const docOrigin = doc.origin
    const clientId = `${doc.origin}/client.json`
    const { email } = await signUp(host)
    await claim(host, email)
    // The SDK sends an https metadata URL only; a loopback document is given as the client's known id.
    const provider = new MemoryProvider(redirectUri(), "Document client", { client_id: clientId })
    const { client, transport } = await connectWith(provider)
    await expect(client.callTool({ name: "list_posts", arguments: {} })).rejects.toThrow(UnauthorizedError)
    expect(provider.redirected!.searchParams.get("client_id")).toBe(clientId)

    const context = await browser!.newContext()
    const page = await context.newPage()
    await page.goto(provider.redirected!.toString())
    expect(doc.seen.map((u) => u.pathname)).toContain("/client.json")
    // Not signed in: the page asks for the address, and the e-mailed link brings the person back here.
    await expectAccessible(page)
    await page.getByLabel("E-mail").fill(email)
    await page.getByRole("button", { name: "Send me a link" }).click()
    const mail = await mailTo(host, email, /\/signin\/complete\?token=/)
    await page.goto(host.local(/https?:\/\/\S+\/signin\/complete\?token=\S+/.exec(mail.text)![0]))
    await page.getByRole("button", { name: "Sign in to Herald" }).click()
    await page.waitForURL("**/oauth/authorize?**")
    expect(await page.locator("#client-name").textContent()).toBe("Document client")
    expect(await page.textContent("body")).toContain(clientId)
    const back = await consentInBrowser(page, "may-publish")
    await transport.finishAuth(back.searchParams.get("code")!)
    await client.close()

    const { client: authed } = await connectWith(provider)
    const accountId = await connectSandboxOverMcp(authed)
    const { post } = await ok(authed, "create_post", {
      accountIds: [accountId],
      content: "Straight to the schedule",
      scheduledFor: new Date(Date.now() + 3_600_000).toISOString()
    })
    expect(post.status).toBe("scheduled")

    // Refresh: a new pair; the old refresh token, used again, is a replay and ends the connection.
    const first = provider.tokens()!
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED")
    const second = provider.tokens()!
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.access_token).not.toBe(first.access_token)
    await ok(authed, "list_posts", {})
    const replay = await fetch(
      `${host.origin}/oauth/token`,
      form({ grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: clientId })
    )
    expect(replay.status).toBe(400)
    expect(((await replay.json()) as any).error).toBe("invalid_grant")
    const after = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${second.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    expect(after.status).toBe(401)
    await authed.close()
    await context.close()
    await doc.close()
  }, 120_000)
})

/** PKCE by hand, for the refusals below. */
const pkce = () => {
  const verifier = randomBytes(48).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

describe("the authorization server refuses what it must", () => {
  let session: { cookie: string; csrf: string }
  let clientId: string
  beforeAll(async () => {
    const { email } = await signUp(host)
    session = await claim(host, email)
    const registered = await fetch(`${host.origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Raw client", redirect_uris: [redirectUri()] })
    })
    expect(registered.status).toBe(201)
    clientId = ((await registered.json()) as any).client_id
  })

  const authorizeParams = (challenge: string, extra: Record<string, string> = {}) => ({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri(),
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${host.origin}/mcp`,
    state: "s1",
    ...extra
  })

  /** The consent form posted as the signed-in person's browser would; answers the redirect's URL. */
  const allow = async (params: Record<string, string>, mode = "asks-first") => {
    const response = await fetch(`${host.origin}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie, origin: host.origin },
      body: new URLSearchParams({ ...params, csrf: session.csrf, decision: "allow", mode })
    })
    expect(response.status).toBe(303)
    return new URL(response.headers.get("location")!)
  }

  const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
    fetch(
      `${host.origin}/oauth/token`,
      form({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri(),
        client_id: clientId,
        resource: `${host.origin}/mcp`,
        ...extra
      })
    )

  it("refuses registrations Herald cannot serve safely", async () => {
    const register = (body: unknown) =>
      fetch(`${host.origin}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
    expect(await register({ redirect_uris: ["http://evil.example/cb"] })).toMatchObject({
      status: 400,
      body: { error: "invalid_redirect_uri" }
    })
    expect(
      await register({ redirect_uris: [redirectUri()], token_endpoint_auth_method: "client_secret_basic" })
    ).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } })
    expect(await register({ client_name: "no uris" })).toMatchObject({
      status: 400,
      body: { error: "invalid_client_metadata" }
    })
    // Garbage is an OAuth error, never a 500: not an object, NUL in a form, a repeated field.
    expect(await register([1, 2])).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } })
    const nul = await fetch(`${host.origin}/oauth/token`, form({ grant_type: "authorization_code", code: "a\u0000b" }))
    expect(nul.status).toBe(400)
    expect(await nul.json()).toMatchObject({ error: "invalid_request" })
    const twice = await fetch(`${host.origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&grant_type=authorization_code"
    })
    expect(await twice.json()).toMatchObject({ error: "invalid_request" })
    expect(await (await fetch(`${host.origin}/oauth/token`, form({ grant_type: "password" }))).json()).toMatchObject({
      error: "unsupported_grant_type"
    })
    const page = await fetch(`${host.origin}/oauth/authorize?client_id=%00`)
    expect(page.status).toBe(400)
  })

  it("a redirect URI not registered is shown to the person, never redirected to", async () => {
    const { challenge } = pkce()
    const url = new URL(`${host.origin}/oauth/authorize`)
    for (const [k, v] of Object.entries(authorizeParams(challenge, { redirect_uri: "https://evil.example/cb" })))
      url.searchParams.set(k, v)
    const response = await fetch(url, { headers: { cookie: session.cookie }, redirect: "manual" })
    expect(response.status).toBe(400)
    expect(response.headers.get("location")).toBeNull()
    expect(await response.text()).toMatch(/not one of the URIs this client registered/)
  })

  it("without PKCE, or for another resource, the client hears why at its redirect URI (with iss)", async () => {
    const { challenge } = pkce()
    const url = new URL(`${host.origin}/oauth/authorize`)
    const { code_challenge: _, ...withoutPkce } = authorizeParams(challenge)
    for (const [k, v] of Object.entries(withoutPkce)) url.searchParams.set(k, v)
    const noPkce = await fetch(url, { headers: { cookie: session.cookie }, redirect: "manual" })
    expect(noPkce.status).toBe(303)
    const told = new URL(noPkce.headers.get("location")!)
    expect(told.searchParams.get("error")).toBe("invalid_request")
    expect(told.searchParams.get("iss")).toBe(host.origin)

    const plain = new URL(url)
    plain.searchParams.set("code_challenge", challenge)
    plain.searchParams.set("code_challenge_method", "plain")
    const refusedPlain = await fetch(plain, { headers: { cookie: session.cookie }, redirect: "manual" })
    expect(new URL(refusedPlain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request")

    const other = new URL(plain)
    other.searchParams.set("code_challenge_method", "S256")
    other.searchParams.set("resource", `${host.origin}/api/v1`)
    const elsewhere = await fetch(other, { headers: { cookie: session.cookie }, redirect: "manual" })
    expect(new URL(elsewhere.headers.get("location")!).searchParams.get("error")).toBe("invalid_target")
  })

  it("a code needs its verifier and its redirect URI, works once, and its token works on /mcp only", async () => {
    const { verifier, challenge } = pkce()
    const wrongVerifier = await exchange(
      (await allow(authorizeParams(challenge))).searchParams.get("code")!,
      pkce().verifier
    )
    expect(wrongVerifier.status).toBe(400)
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" })

    const wrongRedirect = await exchange(
      (await allow(authorizeParams(challenge))).searchParams.get("code")!,
      verifier,
      {
        redirect_uri: `${callback.origin}/other`
      }
    )
    expect(await wrongRedirect.json()).toMatchObject({ error: "invalid_grant" })

    const otherResource = await exchange(
      (await allow(authorizeParams(challenge))).searchParams.get("code")!,
      verifier,
      {
        resource: `${host.origin}/api/v1`
      }
    )
    expect(otherResource.status).toBe(400)
    expect(await otherResource.json()).toMatchObject({ error: "invalid_target" })

    const code = (await allow(authorizeParams(challenge))).searchParams.get("code")!
    const good = await exchange(code, verifier)
    expect(good.status).toBe(200)
    expect(good.headers.get("cache-control")).toBe("no-store")
    const tokens = (await good.json()) as any
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "herald" })
    expect((await exchange(code, verifier)).status).toBe(400)

    // Bound to the MCP resource: the REST API does not take it.
    expect((await call(host, "GET", "/accounts", { key: tokens.access_token })).status).toBe(401)
    const rpc = await fetch(mcpUrl(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_posts", arguments: {} }
      })
    })
    expect(rpc.status).toBe(200)

    // RFC 7009: revoking the refresh token ends the connection, its access token included.
    const revoke = await fetch(
      `${host.origin}/oauth/revoke`,
      form({ token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: clientId })
    )
    expect(revoke.status).toBe(200)
    const afterRevoke = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })
    })
    expect(afterRevoke.status).toBe(401)
    expect((await fetch(`${host.origin}/oauth/revoke`, form({ token: "unknown" }))).status).toBe(200)
  })

  it("a client that lies about its name is shown in its own words, as text", async () => {
    const registered = await fetch(`${host.origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: '<img src=x onerror="alert(1)">Herald Official\u202e',
        redirect_uris: [redirectUri()]
      })
    })
    const liar = ((await registered.json()) as any).client_id
    const url = new URL(`${host.origin}/oauth/authorize`)
    for (const [k, v] of Object.entries(authorizeParams(pkce().challenge, { client_id: liar })))
      url.searchParams.set(k, v)
    const html = await (await fetch(url, { headers: { cookie: session.cookie } })).text()
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Herald Official</q>")
    expect(html).not.toContain("<img")
    expect(html).toMatch(/own claim; Herald has not checked it/)
  })

  it("a consent form without the session's CSRF secret, or from another site, does nothing", async () => {
    const params = authorizeParams(pkce().challenge)
    const stale = await fetch(`${host.origin}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie },
      body: new URLSearchParams({ ...params, csrf: "wrong", decision: "allow" })
    })
    expect(stale.status).toBe(403)
    const crossSite = await fetch(`${host.origin}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: session.cookie,
        origin: "https://evil.example"
      },
      body: new URLSearchParams({ ...params, csrf: session.csrf, decision: "allow" })
    })
    expect(crossSite.status).toBe(403)
  })

  it("a metadata document on loopback over http is read only with the development setting", async () => {
    const doc = await loopbackServer(() => ({
      status: 200,
      type: "application/json",
      body: JSON.stringify({ client_id: "x", redirect_uris: [redirectUri()] })
    }))
    const strict = await host.run(
      findClient(`${doc.origin}/client.json`).pipe(
        Effect.flip,
        Effect.provide(HttpClientDocuments.layer({ allowLoopback: false }))
      )
    )
    expect(strict).toMatchObject({ error: "invalid_client", description: "A client_id URL must use https." })
    expect(doc.seen).toEqual([])
    // Allowed, it is read, and a document naming another client_id is refused.
    const lenient = await host.run(findClient(`${doc.origin}/client.json`).pipe(Effect.flip))
    expect(lenient).toMatchObject({ error: "invalid_client", description: expect.stringMatching(/another client_id/) })
    expect(doc.seen).toHaveLength(1)
    // Asked again within the minute, the answer (a refusal too) comes from the cache: no second request.
    await host.run(findClient(`${doc.origin}/client.json`).pipe(Effect.flip))
    expect(doc.seen).toHaveLength(1)
    await doc.close()
  })
})

// Last in the file: it uses up this address's registrations for the hour.
describe("registration is open, within a limit per address", () => {
  it("past 30 registrations an hour from one address, 429 with Retry-After", async () => {
    let refused: Response | undefined
    for (let i = 0; i < 35 && refused === undefined; i++) {
      const reply = await fetch(`${host.origin}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: `Client ${i}`, redirect_uris: [redirectUri()] })
      })
      if (reply.status !== 201) refused = reply
    }
    expect(refused?.status).toBe(429)
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await refused!.json()).toMatchObject({ error: "rate_limited" })
  })
})
