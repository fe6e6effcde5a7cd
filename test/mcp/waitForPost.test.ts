import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claim, connectSandbox, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok } from "./client.ts"

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

describe("wait_for_post over MCP", () => {
  it("an agent waits in one call for its human's decision: approved, then (another post) rejected", async () => {
    const { key, email } = await signUp(host)
    const { cookie, csrf } = await claim(host, email)
    const accountId = await connectSandbox(host, key)
    const client = await connect(host, key)
    const { post } = await ok(client, "create_post", {
      accountIds: [accountId],
      content: "Please approve",
      scheduledFor: new Date(Date.now() + 3_600_000).toISOString()
    })
    const idle = await ok(client, "wait_for_post", { postId: post.id, waitSeconds: 0 })
    expect(idle).toMatchObject({ settled: false, status: "needs_approval" })

    // The call's first look may come before or after the approval: either way it answers settled. That
    // it waits, and answers within one polling step of the decision, is shown on TestClock by
    // test/webhooks/deliverySuite.ts ("wait_for_post answers within one polling step ...").
    const waiting = ok(client, "wait_for_post", { postId: post.id, waitSeconds: 20 })
    await call(host, "POST", `/posts/${post.id}/approve`, { cookie, headers: { "x-csrf-token": csrf } })
    expect(await waiting).toMatchObject({
      settled: true,
      status: "scheduled",
      post: { id: post.id, status: "scheduled" }
    })

    const other = (await ok(client, "create_post", { accountIds: [accountId], content: "Maybe not" })).post
    const rejected = ok(client, "wait_for_post", { postId: other.id, waitSeconds: 20 })
    await call(host, "POST", `/posts/${other.id}/reject`, { cookie, headers: { "x-csrf-token": csrf } })
    expect(await rejected).toEqual({ settled: true, status: "rejected", post: null })
    await client.close()
  })
})
