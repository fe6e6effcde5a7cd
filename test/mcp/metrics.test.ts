import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultMetricsOptions, refreshDueMetrics } from "../../application/usecases/metrics/worker.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { claim, connectSandbox, uniqueEmail } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok, toolError } from "./client.ts"

// The metrics tools over MCP: the same use cases as REST, the same answers.

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

describe("metrics tools", () => {
  it("get_post_metrics (with refresh) and get_metrics answer as GET /posts/{id}/metrics and GET /metrics", async () => {
    const email = uniqueEmail()
    const signed = await call(host, "POST", "/signup", { body: { email, agentName: "MCP analyst" } })
    const session = await claim(host, email)
    const made = await call(host, "POST", "/keys", {
      cookie: session.cookie,
      headers: { "x-csrf-token": session.csrf },
      body: { name: "Analyst", requireApproval: false }
    })
    const accountId = await connectSandbox(host, signed.body.apiKey)
    const client = await connect(host, made.body.apiKey)
    const created = await ok(client, "create_post", { accountIds: [accountId], content: "How did it go?" })
    await host.run(publishDueTargets(defaultPipelineOptions, 100))

    const asked = await ok(client, "get_post_metrics", { postId: created.post.id, refresh: true })
    expect(asked.targets[0]).toMatchObject({ accountId, state: "pending", readings: [] })
    await host.run(refreshDueMetrics(defaultMetricsOptions))
    const read = await ok(client, "get_post_metrics", { postId: created.post.id })
    const rest = await call(host, "GET", `/posts/${created.post.id}/metrics`, { key: made.body.apiKey })
    expect(read).toEqual(rest.body)
    expect(read.targets[0].readings).toHaveLength(1)

    const sums = await ok(client, "get_metrics", { platform: "sandbox" })
    expect(sums.days[0]).toMatchObject({ accountId, posts: 1 })
    expect((await toolError(client, "get_metrics", { from: "last week" })).code).toBe("validation_failed")
    expect((await toolError(client, "get_post_metrics", { postId: "post_nope" })).code).toBe("post_not_found")
  })
})
