import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishDueTargets } from "../../application/usecases/publishing/worker.ts"
import { defaultPipelineOptions } from "../../application/usecases/publishing/options.ts"
import { deliverDueWebhooks } from "../../application/usecases/webhooks/deliver.ts"
import { defaultDeliveryOptions } from "../../application/usecases/webhooks/options.ts"
import { eventTypes } from "../../domain/events.ts"
import { claim, connectSandbox, signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { startReceiver } from "../webhooks/receiver.ts"

let host: HttpHost
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  host = await startHttpHost()
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver.close()
  await host.close()
})

describe("webhooks over REST", () => {
  it("an agent registers a URL; a person's approval reaches it as post.needs_approval, post.approved, post.published, signed", async () => {
    const { key, email } = await signUp(host)
    const refused = await call(host, "POST", "/webhooks", { key, body: { url: "https://10.0.0.8/hooks" } })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("webhook_url_refused")
    const unknownType = await call(host, "POST", "/webhooks", {
      key,
      body: { url: receiver.url, eventTypes: ["post.exploded"] }
    })
    expect(unknownType.status).toBe(400)

    const created = await call(host, "POST", "/webhooks", { key, body: { url: receiver.url, description: "my agent" } })
    expect(created.status).toBe(201)
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,}$/)
    const id = created.body.webhook.id as string
    receiver.setSecret(created.body.secret)
    const listed = await call(host, "GET", "/webhooks", { key })
    expect(listed.body.webhooks).toHaveLength(1)
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    const patched = await call(host, "PATCH", `/webhooks/${id}`, {
      key,
      body: { eventTypes: ["post.needs_approval", "post.approved", "post.published"] }
    })
    expect(patched.status).toBe(200)
    expect(patched.body.webhook.eventTypes).toEqual(["post.needs_approval", "post.approved", "post.published"])

    const test = await call(host, "POST", `/webhooks/${id}/test`, { key })
    expect(test.status).toBe(200)
    expect(test.body.delivery).toMatchObject({ status: "succeeded", responseCode: 200, eventType: "webhook.test" })

    const { cookie, csrf } = await claim(host, email)
    const accountId = await connectSandbox(host, key)
    const made = await call(host, "POST", "/posts", {
      key,
      body: { accountIds: [accountId], content: "Hello from my agent" }
    })
    expect(made.body.post.status).toBe("needs_approval")
    const postId = made.body.post.id as string
    // An agent without a URL waits for the decision in one call.
    const first = await call(host, "GET", `/events?postId=${postId}&types=post.needs_approval&waitSeconds=5`, { key })
    expect(first.body.events.map((e: { type: string }) => e.type)).toEqual(["post.needs_approval"])
    // Its first look may come before or after the approval; that it waits, and answers within one polling
    // step of the event, is shown on TestClock by test/webhooks/deliverySuite.ts.
    const waiting = call(host, "GET", `/events?postId=${postId}&after=${first.body.nextCursor}&waitSeconds=20`, { key })
    const approved = await call(host, "POST", `/posts/${postId}/approve`, { cookie, headers: { "x-csrf-token": csrf } })
    expect(approved.status).toBe(200)
    const decision = await waiting
    expect(decision.status).toBe(200)
    expect(decision.body.events.map((e: { type: string }) => e.type)).toEqual(["post.approved"])

    await host.run(publishDueTargets(defaultPipelineOptions, 10))
    for (let i = 0; i < 10; i++) await host.run(deliverDueWebhooks(defaultDeliveryOptions))
    expect(receiver.received.map((r) => r.type)).toEqual([
      "webhook.test",
      "post.needs_approval",
      "post.approved",
      "post.published"
    ])
    expect(receiver.received.every((r) => r.verified)).toBe(true)
    const deliveries = await call(host, "GET", `/webhooks/${id}/deliveries`, { key })
    expect(
      deliveries.body.deliveries.map((d: { eventType: string; status: string }) => `${d.eventType}:${d.status}`)
    ).toEqual([
      "post.published:succeeded",
      "post.approved:succeeded",
      "post.needs_approval:succeeded",
      "webhook.test:succeeded"
    ])
    const again = await call(host, "POST", `/webhooks/${id}/deliveries/${deliveries.body.deliveries[0].id}/redeliver`, {
      key
    })
    expect(again.body.delivery.status).toBe("pending")

    expect((await call(host, "DELETE", `/webhooks/${id}`, { key })).body).toEqual({ id, deleted: true })
    const gone = await call(host, "GET", `/webhooks/${id}`, { key })
    expect(gone.status).toBe(404)
    expect(gone.body.error.code).toBe("webhook_not_found")
  })

  it("the OpenAPI document lists every event as a webhook with its payload schema", async () => {
    const doc = await call(host, "GET", "/openapi.json")
    expect(Object.keys(doc.body.webhooks).sort()).toEqual([...eventTypes, "webhook.test"].sort())
    const ref = doc.body.webhooks["post.needs_approval"].post.requestBody.content["application/json"].schema
      .$ref as string
    expect(ref).toBe("#/components/schemas/PostNeedsApprovalEvent")
    expect(doc.body.components.schemas.PostNeedsApprovalEvent.properties.data).toBeDefined()
    expect(doc.body.paths["/api/v1/webhooks"].post).toBeDefined()
    expect(doc.body.paths["/api/v1/events"].get).toBeDefined()
  })
})
