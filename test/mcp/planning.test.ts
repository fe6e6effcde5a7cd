import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claim, connectSandbox, uniqueEmail } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok, toolError } from "./client.ts"

// The planning tools over MCP: the same use cases as REST, the same answers.

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

describe("planning tools", () => {
  it("set_schedules, create_post with queue, create_posts, get_queue, reorder_queue, pause_queue", async () => {
    const email = uniqueEmail()
    const signed = await call(host, "POST", "/signup", {
      body: { email, agentName: "MCP planner", timeZone: "Pacific/Chatham" }
    })
    const session = await claim(host, email)
    const made = await call(host, "POST", "/keys", {
      cookie: session.cookie,
      headers: { "x-csrf-token": session.csrf },
      body: { name: "Planner", requireApproval: false }
    })
    const accountId = await connectSandbox(host, signed.body.apiKey)
    const asksFirst = await connect(host, signed.body.apiKey)
    const client = await connect(host, made.body.apiKey)

    const refused = await toolError(asksFirst, "set_schedules", {
      schedules: [{ accountIds: [accountId], slots: [{ day: "wed", time: "07:15" }] }]
    })
    expect(refused.code).toBe("approval_requires_human")
    const set = await ok(client, "set_schedules", {
      schedules: [
        {
          accountIds: [accountId],
          slots: [
            { day: "wed", time: "07:15" },
            { day: "sat", time: "19:45" }
          ]
        }
      ]
    })
    const scheduleId = set.schedules[0].id
    expect(set.schedules[0].timeZone).toBe("Pacific/Chatham")
    const read = await ok(client, "get_schedules")
    expect(read.schedules[0].nextSlots[0].local).toMatch(/T(07:15|19:45):00$/)

    const one = await ok(client, "create_post", { accountIds: [accountId], content: "one", queue: true })
    expect(one.planned).toMatchObject({ scheduleId, timeZone: "Pacific/Chatham" })
    const batch = await ok(client, "create_posts", {
      posts: [
        { accountIds: [accountId], content: "two", queue: true },
        { accountIds: [accountId], content: "three", queue: true },
        { accountIds: [accountId], content: "" }
      ],
      idempotencyKey: "mcp-batch"
    })
    expect(batch).toMatchObject({ created: 2, failed: 1 })
    const queue = await ok(client, "get_queue", { scheduleId })
    const ids = queue.posts.map((p: { postId: string }) => p.postId)
    expect(ids).toEqual([one.post.id, batch.results[0].post.id, batch.results[1].post.id])
    const reordered = await ok(client, "reorder_queue", { scheduleId, postIds: [ids[2], ids[0]] })
    expect(reordered.moved.map((m: { postId: string }) => m.postId)).toEqual([ids[2], ids[0]])
    const after = await ok(client, "get_queue", { scheduleId })
    expect(after.posts.map((p: { postId: string }) => p.postId)).toEqual([ids[2], ids[1], ids[0]])
    expect((await ok(client, "pause_queue", { scheduleId, paused: true })).schedule.paused).toBe(true)
    expect((await ok(client, "pause_queue", { scheduleId, paused: false })).schedule.paused).toBe(false)
    const moved = await ok(client, "reschedule_post", {
      postId: ids[1],
      scheduledFor: { local: `${new Date().getUTCFullYear() + 1}-01-02T10:00`, timeZone: "UTC" }
    })
    expect(moved.post.scheduledFor).toBe(`${new Date().getUTCFullYear() + 1}-01-02T10:00:00.000Z`)
    await client.close()
    await asksFirst.close()
  })
})
