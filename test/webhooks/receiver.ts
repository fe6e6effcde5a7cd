import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

export interface Received {
  readonly id: string
  readonly timestamp: string
  readonly signature: string
  readonly body: string
  readonly type: string
  /** The answer this request got. */
  readonly status: number
  /** The signature checked out with the Standard Webhooks library and the endpoint's secret. */
  readonly verified: boolean
  readonly at: number
}

/**
 * A webhook receiver on loopback, as a customer would write one: it verifies each request with the
 * standardwebhooks library. `answer` decides each status (default 200); everything is recorded.
 */
export const startReceiver = async (
  options: { readonly answer?: (body: { id: string; type: string }, n: number) => number } = {}
) => {
  const received: Array<Received> = []
  let secret: string | null = null
  let count = 0
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"])
      }
      let verified = false
      try {
        if (secret !== null) new Webhook(secret).verify(body, headers)
        verified = secret !== null
      } catch {
        verified = false
      }
      const parsed = JSON.parse(body) as { id: string; type: string }
      const status = options.answer?.(parsed, ++count) ?? 200
      received.push({
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        type: parsed.type,
        status,
        verified,
        at: Date.now()
      })
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Accepted requests only, in arrival order. */
    accepted: () => received.filter((r) => r.status < 300),
    setSecret: (s: string) => {
      secret = s
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
