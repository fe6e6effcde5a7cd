import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { continueConnectLink } from "../support/connectLink.ts"
import { uniqueEmail } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok, toolError } from "./client.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const keyedTools = [
  "sign_up",
  "request_claim_link",
  "list_accounts",
  "connect_account",
  "list_boards",
  "disconnect_account",
  "upload_media",
  "get_media_preview",
  "create_post",
  "list_posts",
  "get_post",
  "wait_for_post",
  "update_post",
  "reschedule_post",
  "cancel_post",
  "reject_post",
  "take_down_post",
  "create_posts",
  "get_schedules",
  "set_schedules",
  "get_queue",
  "reorder_queue",
  "pause_queue",
  "get_post_metrics",
  "get_metrics",
  "list_networks",
  "get_media",
  "list_events",
  "create_webhook",
  "list_webhooks",
  "update_webhook",
  "delete_webhook",
  "test_webhook",
  "list_webhook_deliveries",
  "redeliver_webhook_delivery"
]

/** Signs up over MCP without a key, then connects again with the key it got. */
const signedUp = async () => {
  const anonymous = await connect(host)
  const result = await ok(anonymous, "sign_up", { email: uniqueEmail(), agentName: "MCP agent" })
  await anonymous.close()
  return { key: result.apiKey as string, client: await connect(host, result.apiKey), result }
}

/** connect_account gives a URL; fetching it (as a browser would) connects a sandbox account. */
const connectSandbox = async (client: Client) => {
  const { url } = await ok(client, "connect_account", { platform: "sandbox" })
  const { next, cookie } = await continueConnectLink(host.local(url))
  const done = await fetch(host.local(next), { headers: { accept: "application/json", cookie } })
  expect(done.status).toBe(200)
  return ((await done.json()) as { account: { id: string } }).account.id
}

const future = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString()

describe("MCP over Streamable HTTP at /mcp", () => {
  it("without a key: every tool is listed (calling one needs authorization), and sign_up returns an asks-first key", async () => {
    const client = await connect(host)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(keyedTools)
    const result = await ok(client, "sign_up", { email: uniqueEmail(), agentName: "MCP agent", locale: "en" })
    expect(result).toMatchObject({
      created: true,
      key: { name: "MCP agent", requireApproval: true },
      workspace: { plan: "free", claimed: false }
    })
    expect(result.apiKey).toMatch(/^hrld_/)
    expect(result.next.length).toBeGreaterThan(0)
    await expect(client.callTool({ name: "list_accounts", arguments: {} })).rejects.toThrow(/401|nauthorized/)
    await client.close()
  })

  it("with a key: every tool is listed with a description and input and output schemas", async () => {
    const { client } = await signedUp()
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(keyedTools)
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(60)
      expect(t.inputSchema.type).toBe("object")
      expect(t.outputSchema?.type).toBe("object")
    }
    const create = tools.find((t) => t.name === "create_post")!
    expect(Object.keys(create.inputSchema.properties!)).toEqual(
      expect.arrayContaining([
        "accountIds",
        "dryRun",
        "scheduledFor",
        "idempotencyKey",
        "poll",
        "cover",
        "thread",
        "firstComment",
        "overrides"
      ])
    )
    expect(create.description).toMatch(/approv/)
    expect(client.getInstructions()).toMatch(/asks-first/)
    await client.close()
  })

  it("a wrong key fails to connect with 401", async () => {
    await expect(connect(host, "hrld_wrongwrongwrongwrongwrongwrongwrongwrongwro")).rejects.toThrow(/401|nauthorized/)
    await expect(connect(host, "not-even-a-key")).rejects.toThrow(/401|nauthorized/)
  })

  it("connects a sandbox account, dry-runs, creates, reads back and cancels a post", async () => {
    const { client } = await signedUp()
    expect((await ok(client, "list_accounts")).accounts).toEqual([])
    const accountId = await connectSandbox(client)
    const { accounts } = await ok(client, "list_accounts")
    expect(accounts).toMatchObject([{ id: accountId, platform: "sandbox", status: "connected" }])

    const dry = await ok(client, "create_post", { accountIds: [accountId], content: "Hello from MCP", dryRun: true })
    expect(dry).toMatchObject({ dryRun: true, valid: true, requireApproval: true })
    expect((await ok(client, "list_posts")).posts).toEqual([])

    const { post } = await ok(client, "create_post", {
      accountIds: [accountId],
      content: "Hello from MCP",
      scheduledFor: future(2),
      firstComment: "https://example.org/more"
    })
    expect(post).toMatchObject({
      status: "needs_approval",
      content: "Hello from MCP",
      createdBy: { kind: "key", name: "MCP agent" }
    })
    expect(post.targets).toMatchObject([{ accountId, platform: "sandbox", status: "needs_approval" }])

    expect((await ok(client, "get_post", { postId: post.id })).post).toMatchObject({
      id: post.id,
      status: "needs_approval"
    })
    const listed = await ok(client, "list_posts", { status: "needs_approval", limit: 10 })
    expect(listed.posts.map((p: { id: string }) => p.id)).toEqual([post.id])

    expect(await ok(client, "cancel_post", { postId: post.id })).toEqual({ id: post.id, cancelled: true })
    expect((await toolError(client, "get_post", { postId: post.id })).code).toBe("post_not_found")
    await client.close()
  })

  it("reschedules and rejects its own posts; an idempotency key replays instead of posting twice", async () => {
    const { client } = await signedUp()
    const accountId = await connectSandbox(client)
    const args = { accountIds: [accountId], content: "Once only", idempotencyKey: "mcp-once-1" }
    const first = await ok(client, "create_post", args)
    const again = await ok(client, "create_post", args)
    expect(again).toMatchObject({ replayed: true, post: { id: first.post.id } })
    expect((await toolError(client, "create_post", { ...args, content: "Different" })).code).toBe(
      "idempotency_key_reused"
    )

    const when = future(30)
    const moved = await ok(client, "reschedule_post", { postId: first.post.id, scheduledFor: when })
    expect(moved.post.scheduledFor).toBe(when)
    expect(await ok(client, "reject_post", { postId: first.post.id })).toEqual({ id: first.post.id, rejected: true })
    expect((await ok(client, "list_posts")).posts).toEqual([])
    await client.close()
  })

  it("update_post edits its own waiting post (a dry run first); take_down_post refuses what is not out", async () => {
    const { client } = await signedUp()
    const accountId = await connectSandbox(client)
    const { post } = await ok(client, "create_post", {
      accountIds: [accountId],
      content: "Draft",
      scheduledFor: future(5)
    })
    const dry = await ok(client, "update_post", { postId: post.id, content: "Final", dryRun: true })
    expect(dry.changes).toEqual([{ accountId, platform: "sandbox", change: "changed", fields: ["content"] }])
    expect((await ok(client, "get_post", { postId: post.id })).post.content).toBe("Draft")
    const edited = await ok(client, "update_post", { postId: post.id, content: "Final", firstComment: "link" })
    expect(edited.post).toMatchObject({ id: post.id, status: "needs_approval", content: "Final", firstComment: "link" })
    expect((await toolError(client, "update_post", { postId: post.id, content: "", mediaIds: [] })).code).toBe(
      "validation_failed"
    )
    // Not out yet: nothing to take down (cancel it instead).
    expect(await toolError(client, "take_down_post", { postId: post.id })).toMatchObject({
      code: "target_not_published",
      retryable: false
    })
    expect((await toolError(client, "take_down_post", { postId: post.id, accountId: "acc_nope" })).code).toBe(
      "target_not_found"
    )
    await client.close()
  })

  it("disconnect_account removes the account; again, or another workspace's id, is account_not_found", async () => {
    const { client } = await signedUp()
    const accountId = await connectSandbox(client)
    const other = await signedUp()
    expect((await toolError(other.client, "disconnect_account", { accountId })).code).toBe("account_not_found")
    expect(await ok(client, "disconnect_account", { accountId })).toEqual({ id: accountId, disconnected: true })
    expect((await ok(client, "list_accounts")).accounts).toEqual([])
    expect(await toolError(client, "disconnect_account", { accountId })).toMatchObject({
      code: "account_not_found",
      retryable: false
    })
    await client.close()
    await other.client.close()
  })

  it("create_post takes per-network overrides; its dry run shows each target's final content and length", async () => {
    const { client } = await signedUp()
    const accountId = await connectSandbox(client)
    const args = {
      accountIds: [accountId],
      content: "The long text",
      overrides: { sandbox: { content: "Sandbox's own", firstComment: "More" } }
    }
    const dry = await ok(client, "create_post", { ...args, dryRun: true })
    expect(dry.targets).toEqual([
      {
        accountId,
        platform: "sandbox",
        username: expect.any(String),
        content: "Sandbox's own",
        mediaIds: [],
        thread: [],
        firstComment: "More",
        length: { used: 13, limit: 10000 },
        warnings: []
      }
    ])
    const { post } = await ok(client, "create_post", args)
    expect(post.overrides).toEqual(args.overrides)
    expect(
      (await toolError(client, "create_post", { ...args, overrides: { sandbox: { content: 1 } } })).details.fields
    ).toEqual(["overrides.sandbox.content"])
    await client.close()
  })

  it("use-case errors come back as tool errors carrying the envelope", async () => {
    const { client } = await signedUp()
    const accountId = await connectSandbox(client)
    const past = await toolError(client, "create_post", {
      accountIds: [accountId],
      content: "Late",
      scheduledFor: "2020-01-01T00:00:00Z"
    })
    expect(past).toMatchObject({ code: "scheduled_in_past", retryable: false })
    expect((await toolError(client, "create_post", { accountIds: ["acc_nope"], content: "x" })).code).toBe(
      "account_not_found"
    )
    const platform = await toolError(client, "connect_account", { platform: "myspace" })
    expect(platform).toMatchObject({ code: "platform_unavailable", details: { available: ["sandbox"] } })
    expect((await toolError(client, "list_posts", { limit: 500 })).code).toBe("validation_failed")
    await client.close()
  })

  it("bad arguments give a validation_failed tool error naming the fields, never a crash", async () => {
    const { client } = await signedUp()
    const wrongType = await toolError(client, "create_post", { accountIds: "acc_1", content: 5 })
    expect(wrongType).toMatchObject({ code: "validation_failed", retryable: false })
    expect(wrongType.details.fields).toEqual(expect.arrayContaining(["accountIds", "content"]))
    const unknown = await toolError(client, "create_post", { accountIds: ["a"], sheduledFor: "tomorrow" })
    expect(unknown.details.fields).toEqual(["sheduledFor"])
    expect((await toolError(client, "get_post", {})).details.fields).toEqual(["postId"])
    expect(
      (await toolError(client, "create_post", { accountIds: ["a"], poll: { options: "yes" } })).details.fields
    ).toEqual(expect.arrayContaining(["poll.options", "poll.durationMinutes"]))
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/)
    expect((await ok(client, "list_accounts")).accounts).toEqual([])
    await client.close()
  })

  it("answers plain HTTP like the REST API: 401 with WWW-Authenticate, 405 for GET", async () => {
    const rpc = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${host.origin}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body)
      })
    const keyless = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_posts", arguments: {} }
    })
    expect(keyless.status).toBe(401)
    expect(keyless.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect(((await keyless.json()) as any).error.code).toBe("unauthorized")
    const wrong = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: "Bearer hrld_nope" })
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect((await fetch(`${host.origin}/mcp`)).status).toBe(405)
    const garbled = await fetch(`${host.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json"
    })
    expect(garbled.status).toBe(400)
  })
})
