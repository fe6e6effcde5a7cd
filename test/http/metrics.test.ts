import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultMetricsOptions, refreshDueMetrics } from "../../application/usecases/metrics/worker.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { claim, connectSandbox, uniqueEmail } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

// What each post did, over REST: every answer checked against the served OpenAPI document.

let host: HttpHost
beforeAll(async () => {
  host = await startHttpHost()
})
afterAll(() => host.close())

const setUp = async () => {
  const email = uniqueEmail()
  const signed = await call(host, "POST", "/signup", { body: { email, agentName: "Analyst" } })
  const asksFirst = signed.body.apiKey as string
  const session = await claim(host, email)
  const made = await call(host, "POST", "/keys", {
    cookie: session.cookie,
    headers: { "x-csrf-token": session.csrf },
    body: { name: "Bot", requireApproval: false }
  })
  return { key: made.body.apiKey as string, accountId: await connectSandbox(host, asksFirst) }
}

describe("metrics over REST", () => {
  it("a published post: pending, then read on demand; GET /posts/{id}, its history and the daily sums agree", async () => {
    const { key, accountId } = await setUp()
    const created = await call(host, "POST", "/posts", { key, body: { accountIds: [accountId], content: "Counting" } })
    const id = created.body.post.id as string
    await host.run(publishDueTargets(defaultPipelineOptions, 100))
    const pending = await call(host, "GET", `/posts/${id}`, { key })
    expect(pending.body.post.targets[0].metrics).toEqual({ state: "pending", reason: null, latest: null })

    const asked = await call(host, "POST", `/posts/${id}/metrics/refresh`, { key })
    expect(asked.status).toBe(200)
    expect(asked.body).toEqual({ queued: 1, notBefore: null })
    await host.run(refreshDueMetrics(defaultMetricsOptions))
    const again = await call(host, "POST", `/posts/${id}/metrics/refresh`, { key })
    expect(again.body.queued).toBe(0)
    expect(again.body.notBefore).toMatch(/Z$/)

    const post = await call(host, "GET", `/posts/${id}`, { key })
    const latest = post.body.post.targets[0].metrics.latest
    expect(post.body.post.targets[0].metrics.state).toBe("available")
    expect(latest.figures.views.value).toBe(latest.raw.views)
    expect(latest.figures.watchTimeSeconds).toEqual({ value: null, reason: "The sandbox has no video player." })

    const history = await call(host, "GET", `/posts/${id}/metrics`, { key })
    expect(history.status).toBe(200)
    expect(history.body.targets[0]).toMatchObject({ accountId, platform: "sandbox", state: "available" })
    expect(history.body.targets[0].readings).toHaveLength(1)

    const sums = await call(host, "GET", `/metrics?platform=sandbox&accountId=${accountId}`, { key })
    expect(sums.status).toBe(200)
    expect(sums.body.days).toHaveLength(1)
    expect(sums.body.days[0]).toMatchObject({ accountId, platform: "sandbox", posts: 1 })
    expect(sums.body.days[0].figures.views.value).toBe(latest.raw.views)
    expect(sums.body.timeZone).toBe("UTC")

    // Days in the asked zone: UTC+14 and UTC-11 are never on the same calendar day.
    const publishedAt = post.body.post.targets[0].publishedAt as string
    const dayIn = (zone: string) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
        new Date(publishedAt)
      )
    expect(dayIn("Pacific/Kiritimati")).not.toBe(dayIn("Pacific/Pago_Pago"))
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const zoned = await call(host, "GET", `/metrics?accountId=${accountId}&timeZone=${encodeURIComponent(zone)}`, {
        key
      })
      expect(zoned.status).toBe(200)
      expect(zoned.body.timeZone).toBe(zone)
      expect(zoned.body.days.map((d: { day: string }) => d.day)).toEqual([dayIn(zone)])
    }
  })

  it("bad ranges and platforms are 400 with the fields named; an unknown post is 404", async () => {
    const { key } = await setUp()
    const bad = await call(host, "GET", "/metrics?from=yesterday&platform=myspace", { key })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.fields).toEqual(["from", "platform"])
    const wide = await call(host, "GET", "/metrics?from=2026-01-01T00:00:00Z&to=2026-12-01T00:00:00Z", { key })
    expect(wide.status).toBe(400)
    const zone = await call(host, "GET", "/metrics?timeZone=Mars%2FOlympus", { key })
    expect(zone.status).toBe(400)
    expect(zone.body.error.details.fields).toEqual(["timeZone"])
    expect((await call(host, "GET", "/posts/post_01JZZZZZZZZZZZZZZZZZZZZZZZ/metrics", { key })).status).toBe(404)
    expect((await call(host, "POST", "/posts/nope/metrics/refresh", { key })).status).toBe(404)
  })
})
