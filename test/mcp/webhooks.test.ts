import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectSandbox, signUp } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok, toolError } from "./client.ts"
import { loopbackServer } from "./oauthClient.ts"

// The REST API's webhooks, deliveries, events feed, media details and networks offered, as MCP tools.

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

describe("webhooks, events, media and networks over MCP", () => {
  it("every tool carries a title and read-only / destructive / idempotent hints", async () => {
    const { key } = await signUp(host)
    const client = await connect(host, key)
    for (const tool of (await client.listTools()).tools) {
      expect(tool.title, tool.name).toBeTruthy()
      expect(tool.annotations?.readOnlyHint, tool.name).toBeTypeOf("boolean")
      if (tool.annotations?.readOnlyHint === false)
        expect(tool.annotations?.destructiveHint, tool.name).toBeTypeOf("boolean")
    }
    const byName = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations]))
    expect(byName.get("delete_webhook")).toMatchObject({ readOnlyHint: false, destructiveHint: true })
    expect(byName.get("list_events")).toMatchObject({ readOnlyHint: true })
    await client.close()
  })

  it("resources: the workspace's accounts and recent posts, as JSON", async () => {
    const { key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", { accountIds: [accountId], content: "A resource" })
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      "herald://accounts",
      "herald://posts/recent"
    ])
    const accounts = await client.readResource({ uri: "herald://accounts" })
    expect(JSON.parse((accounts.contents[0] as { text: string }).text).accounts[0].id).toBe(accountId)
    const posts = await client.readResource({ uri: "herald://posts/recent" })
    expect(JSON.parse((posts.contents[0] as { text: string }).text).posts[0].id).toBe(post.id)
    await expect(client.readResource({ uri: "herald://nothing" })).rejects.toThrow(/Unknown resource/)
    await client.close()
  })

  it("registers, tests, lists deliveries of, redelivers, changes and deletes a webhook; reads events and media", async () => {
    const { key } = await signUp(host)
    const receiver = await loopbackServer(() => ({ status: 200, type: "text/plain", body: "ok" }))
    const client = await connect(host, key)
    expect((await ok(client, "list_networks")).networks).toContainEqual({ platform: "sandbox", name: "Sandbox" })

    const created = await ok(client, "create_webhook", {
      url: `${receiver.origin}/hooks`,
      eventTypes: ["post.approved"]
    })
    expect(created.secret).toMatch(/^whsec_/)
    const id = created.webhook.id
    expect((await ok(client, "list_webhooks")).webhooks.map((w: { id: string }) => w.id)).toEqual([id])
    const tested = await ok(client, "test_webhook", { webhookId: id })
    expect(tested.delivery.status).toBe("succeeded")
    expect(receiver.seen.map((u) => u.pathname)).toContain("/hooks")
    const deliveries = await ok(client, "list_webhook_deliveries", { webhookId: id, limit: 5 })
    expect(deliveries.deliveries.map((d: { id: string }) => d.id)).toContain(tested.delivery.id)
    const again = await ok(client, "redeliver_webhook_delivery", { webhookId: id, deliveryId: tested.delivery.id })
    expect(again.delivery.id).toBe(tested.delivery.id)
    const off = await ok(client, "update_webhook", { webhookId: id, enabled: false, description: "paused" })
    expect(off.webhook).toMatchObject({ enabled: false, description: "paused" })
    expect(await ok(client, "delete_webhook", { webhookId: id })).toEqual({ id, deleted: true })
    expect((await toolError(client, "delete_webhook", { webhookId: id })).code).toBe("webhook_not_found")

    const accountId = await connectSandbox(host, key)
    const { post } = await ok(client, "create_post", { accountIds: [accountId], content: "An event" })
    const events = await ok(client, "list_events", { postId: post.id, limit: 10 })
    expect(events.events.length).toBeGreaterThan(0)
    expect(events.events.every((e: { resource: { id: string } }) => e.resource.id === post.id)).toBe(true)

    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#123456" } })
      .png()
      .toBuffer()
    const { media } = await ok(client, "upload_media", { filename: "dot.png", dataBase64: png.toString("base64") })
    const details = await ok(client, "get_media", { mediaId: media.id })
    expect(details.media).toMatchObject({ id: media.id, width: 8, height: 6 })
    expect((await toolError(client, "get_media", { mediaId: "med_nothing" })).code).toBe("media_not_found")
    await client.close()
    await receiver.close()
  })
})
