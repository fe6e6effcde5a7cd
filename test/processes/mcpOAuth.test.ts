import { continueConnectLink } from "../support/connectLink.ts"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, describe, expect, it } from "vitest"
import { ok } from "../mcp/client.ts"
import { loopbackServer, MemoryProvider } from "../mcp/oauthClient.ts"
import { startEmbedded } from "../support/embeddedProcess.ts"
import { chromiumAvailable, launch } from "../web/browser.ts"

/*
 * `npm start` as an assistant meets it: an MCP client that knows only the URL, identified by a Client ID
 * Metadata Document on loopback (read because HERALD_ALLOW_LOOPBACK=true, the development setting),
 * the person's consent in Chromium, a post waiting for approval, and the decision learned with wait_for_post.
 */

const closers: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe.skipIf(!chromiumAvailable)("npm start as an OAuth-protected MCP server", () => {
  it("a client knowing only /mcp reaches 'waiting for approval' through OAuth and learns the decision", async () => {
    const host = await startEmbedded({ HERALD_ALLOW_LOOPBACK: "true" })
    closers.push(host.close)
    const callback = await loopbackServer(() => ({ status: 200, type: "text/html", body: "<p>Done</p>" }))
    closers.push(callback.close)
    const redirectUri = `${callback.origin}/callback`
    const doc = await loopbackServer(() => ({
      status: 200,
      type: "application/json",
      body: JSON.stringify({
        client_id: `${docOrigin}/assistant.json`,
        client_name: "Assistant by document",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none"
      })
    }))
    const docOrigin = doc.origin
    closers.push(doc.close)

    const mcpUrl = new URL(`${host.origin}/mcp`)
    const provider = new MemoryProvider(redirectUri, "Assistant by document", {
      client_id: `${doc.origin}/assistant.json`
    })
    const connect = async () => {
      const client = new Client({ name: "assistant", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
      await client.connect(transport)
      return { client, transport }
    }
    const { client, transport } = await connect()
    await expect(client.callTool({ name: "list_accounts", arguments: {} })).rejects.toThrow(UnauthorizedError)

    const browser = await launch()
    closers.push(() => browser.close())
    const context = await browser.newContext()
    const [name, value] = host.session.cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: host.origin }])
    const page = await context.newPage()
    await page.goto(provider.redirected!.toString())
    expect(await page.locator("#client-name").textContent()).toBe("Assistant by document")
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL(`${redirectUri}**`)
    const back = new URL(page.url())
    expect(back.searchParams.get("iss")).toBe(host.origin)
    await transport.finishAuth(back.searchParams.get("code")!)
    await client.close()

    const { client: authed } = await connect()
    const { url } = await ok(authed, "connect_account", { platform: "sandbox" })
    const { next, cookie } = await continueConnectLink(url)
    const connected = await fetch(new URL(next, url), { headers: { accept: "application/json", cookie } })
    const accountId = ((await connected.json()) as { account: { id: string } }).account.id
    const { post } = await ok(authed, "create_post", {
      accountIds: [accountId],
      content: "Connected through OAuth to npm start",
      scheduledFor: new Date(Date.now() + 3_600_000).toISOString()
    })
    expect(post.status).toBe("needs_approval")
    const waiting = ok(authed, "wait_for_post", { postId: post.id, waitSeconds: 30 })
    const approved = await fetch(`${host.api}/posts/${post.id}/approve`, {
      method: "POST",
      headers: { cookie: host.session.cookie, "x-csrf-token": host.session.csrf }
    })
    expect(approved.status).toBe(200)
    expect(await waiting).toMatchObject({ settled: true, status: "scheduled" })
    await authed.close()
  }, 180_000)
})
