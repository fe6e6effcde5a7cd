import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connect, ok, toolError } from "../mcp/client.ts"
import { claim, connectSandbox, signIn, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

// What issue 23 found between tenants, agents and people, over REST and MCP (README "Security").

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const HOUR = 3_600_000
const future = (ms: number) => new Date(Date.now() + ms).toISOString()

const eventTypes = async (key: string, postId: string) =>
  (await call(host, "GET", `/events?postId=${postId}`, { key })).body.events.map((e: { type: string }) => e.type)

describe("an approval binds the time too", () => {
  it("REST: a key's reschedule of an approved post sends it back to needs_approval; a person's keeps it approved", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const person = { cookie, headers: { "x-csrf-token": csrf } }
    const created = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "next month", scheduledFor: future(30 * 24 * HOUR) }
    })
    const id = created.body.post.id
    expect((await call(host, "POST", `/posts/${id}/approve`, person)).body.post.status).toBe("scheduled")
    const byPerson = await call(host, "POST", `/posts/${id}/reschedule`, {
      ...person,
      body: { scheduledFor: future(20 * 24 * HOUR) }
    })
    expect(byPerson.body.post.status).toBe("scheduled")
    const byKey = await call(host, "POST", `/posts/${id}/reschedule`, { key, body: { scheduledFor: future(HOUR) } })
    expect(byKey.status).toBe(200)
    expect(byKey.body.post.status).toBe("needs_approval")
    expect((await eventTypes(key, id)).slice(-2)).toEqual(["post.rescheduled", "post.needs_approval"])
    const waiting = await call(host, "GET", "/approvals", person)
    expect(waiting.body.items.map((i: { post: { id: string } }) => i.post.id)).toContain(id)
  })

  it("MCP: reschedule_post of an approved post sends it back the same way", async () => {
    const { email, key } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const { cookie, csrf } = await claim(host, email)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", {
      accountIds: [accountId],
      content: "over MCP",
      scheduledFor: future(30 * 24 * HOUR)
    })
    await call(host, "POST", `/posts/${post.id}/approve`, { cookie, headers: { "x-csrf-token": csrf } })
    const moved = await ok(client, "reschedule_post", { postId: post.id, scheduledFor: future(HOUR) })
    expect(moved.post.status).toBe("needs_approval")
    expect((await ok(client, "get_post", { postId: post.id })).post.status).toBe("needs_approval")
    await client.close()
  })
})

describe("unclaimed workspaces never publish", () => {
  it("a sign-in through the owner's mailbox claims the workspace (REST and MCP see it claimed); only then is a post approved", async () => {
    const { email, key, workspaceId } = await signUp(host)
    const accountId = await connectSandbox(host, key)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", { accountIds: [accountId], content: "waits for a claim" })
    expect(post.status).toBe("needs_approval")
    const { cookie, csrf } = await signIn(host, email)
    const person = { cookie, headers: { "x-csrf-token": csrf } }
    const claimLink = await call(host, "POST", "/claim-link", { key })
    expect(claimLink.status).toBe(409)
    expect(claimLink.body.error.code).toBe("already_claimed")
    expect((await toolError(client, "request_claim_link")).code).toBe("already_claimed")
    const claimedEvents = await call(host, "GET", "/events?types=workspace.claimed&waitSeconds=5", { key })
    expect(claimedEvents.body.events).toEqual([expect.objectContaining({ workspaceId })])
    const approved = await call(host, "POST", `/posts/${post.id}/approve`, person)
    expect(approved.status).toBe(200)
    expect(["publishing", "published"]).toContain(approved.body.post.status)
    await client.close()
  })
})
