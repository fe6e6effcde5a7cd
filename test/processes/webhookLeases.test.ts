import { continueConnectLink } from "../support/connectLink.ts"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { startEmbedded } from "../support/embeddedProcess.ts"

/*
 * `npm start` with its delivery loop looking at the queue every millisecond: the test endpoint still answers with
 * the receiver's status every time (the loop never takes its delivery first); and SIGKILLed while a delivery is
 * out, then started again, it sends that delivery again within 15 s of the restart.
 */

type Host = Awaited<ReturnType<typeof startEmbedded>>
const hosts: Array<Host> = []
const hanging: Array<ServerResponse> = []
afterAll(async () => {
  for (const res of hanging) res.destroy()
  for (const host of hosts) await host.close()
})

/** A receiver on loopback: the first request of an event id waits (never answered) when `hangFirst`; all are noted. */
const receiver = async (hangFirst: (type: string) => boolean) => {
  const arrivals: Array<{ id: string; type: string; at: number }> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const id = String(req.headers["webhook-id"])
      const type = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string }).type
      const first = !arrivals.some((a) => a.id === id)
      arrivals.push({ id, type, at: Date.now() })
      if (first && hangFirst(type)) hanging.push(res)
      else res.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { arrivals, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server }
}

describe("npm start: webhook test calls and crash recovery", () => {
  it("POST /webhooks/{id}/test answers the receiver's status 30 times out of 30 beside a busy loop; a killed delivery resumes within 15 s", async () => {
    const host = await startEmbedded({ HERALD_WEBHOOKS_ALLOW_LOOPBACK: "true", HERALD_WEBHOOK_POLL_MS: "1" })
    hosts.push(host)
    const hooks = await receiver((type) => type === "post.created")
    try {
      const json = { ...host.auth, "content-type": "application/json" }
      const created = (await (
        await fetch(`${host.api}/webhooks`, { method: "POST", headers: json, body: JSON.stringify({ url: hooks.url }) })
      ).json()) as { webhook: { id: string } }
      const answers: Array<{ status: string; responseCode: number | null }> = []
      for (let i = 0; i < 30; i++) {
        const reply = await fetch(`${host.api}/webhooks/${created.webhook.id}/test`, {
          method: "POST",
          headers: host.auth
        })
        answers.push(((await reply.json()) as { delivery: { status: string; responseCode: number | null } }).delivery)
      }
      expect(answers.filter((a) => a.status !== "succeeded" || a.responseCode !== 200)).toEqual([])
      const tests = hooks.arrivals.filter((a) => a.type === "webhook.test")
      expect(new Set(tests.map((a) => a.id)).size).toBe(30)
      expect(tests.length, "each test event was sent once").toBe(30)

      // A post's event: its request hangs at the receiver, the process dies, and starts again.
      // The sandbox connects once its link is continued in a browser.
      const link = (await (await fetch(`${host.api}/connect/sandbox`, { headers: host.auth })).json()) as {
        url: string
      }
      const { next, cookie } = await continueConnectLink(link.url)
      expect((await fetch(new URL(next, link.url), { headers: { cookie } })).status).toBe(200)
      const listed = (await (await fetch(`${host.api}/accounts`, { headers: host.auth })).json()) as {
        accounts: Array<{ id: string }>
      }
      const account = listed.accounts[0]
      const made = await host.post({
        accountIds: [account!.id],
        content: "recovery",
        scheduledFor: new Date(Date.now() + 86_400_000).toISOString()
      })
      expect(made.status).toBe(201)
      for (let i = 0; i < 200 && !hooks.arrivals.some((a) => a.type === "post.created"); i++)
        await new Promise((r) => setTimeout(r, 50))
      const eventId = hooks.arrivals.find((a) => a.type === "post.created")!.id
      await host.crash()
      const restartedAt = Date.now()
      await host.restart()
      for (let i = 0; i < 400 && hooks.arrivals.filter((a) => a.id === eventId).length < 2; i++)
        await new Promise((r) => setTimeout(r, 50))
      const again = hooks.arrivals.filter((a) => a.id === eventId)[1]
      expect(again, "the delivery went again after the restart").toBeDefined()
      console.info(`npm start recovery: the killed delivery went again ${again!.at - restartedAt} ms after the restart`)
      expect(again!.at - restartedAt).toBeLessThan(15_000)
    } finally {
      hooks.server.closeAllConnections()
      hooks.server.close()
    }
  }, 120_000)
})
