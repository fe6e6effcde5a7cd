import { createServer, type Server } from "node:http"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeClient } from "../../../adapters/networks/bluesky/client.ts"
import { readCard, readImage } from "../../../adapters/networks/bluesky/linkCard.ts"
import * as Outbound from "../../../adapters/outbound/client.ts"

/** One local server playing a PDS (describeServer) and a web page with a card, recording what it is asked. */
let server: Server
let port = 0
const asked: Array<string> = []

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? "")
    if (req.url?.startsWith("/xrpc/com.atproto.server.describeServer"))
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ did: "did:web:pds.test", availableUserDomains: [] }))
    if (req.url === "/inside")
      return res.writeHead(302, { location: "http://[::ffff:a9fe:a9fe]/latest/meta-data" }).end()
    res.writeHead(200, { "content-type": "text/html" }).end("<title>A page</title>")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as { port: number }).port
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const loopbackAllowed = Outbound.layer({ allowLoopback: true })

describe("Bluesky's calls to hosts someone else named go through the one address guard", () => {
  it("the PDS an identity document names is guarded; the service Herald's configuration names is not", async () => {
    const client = makeClient({ serviceUrl: `http://127.0.0.1:${port}` })
    const describeAt = (host: string) =>
      client
        .call((agent, signal) => agent.com.atproto.server.describeServer(undefined, { signal }), host)
        .pipe(
          Effect.map((r) => r.data.did),
          Effect.catch((f) => Effect.succeed(`refused: ${f.message}`))
        )
    const before = asked.length
    // The configured service on loopback works without the setting: the operator chose it.
    expect(await Effect.runPromise(describeAt(`http://127.0.0.1:${port}`))).toBe("did:web:pds.test")
    // A PDS on this machine, named by an account's document: refused, and never asked.
    expect(await Effect.runPromise(describeAt(`http://localhost:${port}`))).toMatch(/refused: .*loopback/)
    expect(await Effect.runPromise(describeAt(`http://[::ffff:7f00:1]:${port}`))).toMatch(/refused: .*loopback/)
    expect(asked.length - before).toBe(1)
    // HERALD_ALLOW_LOOPBACK lets it through; a private address stays refused.
    expect(await Effect.runPromise(describeAt(`http://localhost:${port}`).pipe(Effect.provide(loopbackAllowed)))).toBe(
      "did:web:pds.test"
    )
    expect(
      await Effect.runPromise(describeAt(`http://[64:ff9b::a00:1]:${port}`).pipe(Effect.provide(loopbackAllowed)))
    ).toMatch(/refused: .*private/)
  })

  it("a link card's page and picture are read through the guard, on every redirect hop", async () => {
    const before = asked.length
    expect(await Effect.runPromise(readCard(`http://127.0.0.1:${port}/page`))).toBeNull()
    expect(await Effect.runPromise(readImage(`http://localhost:${port}/card.png`))).toBeNull()
    expect(asked.length - before, "nothing reached the server").toBe(0)
    expect(
      await Effect.runPromise(readCard(`http://127.0.0.1:${port}/page`).pipe(Effect.provide(loopbackAllowed)))
    ).toMatchObject({ title: "A page" })
    // Allowed loopback page redirecting to the cloud metadata address (IPv4-mapped): no card.
    expect(
      await Effect.runPromise(readCard(`http://127.0.0.1:${port}/inside`).pipe(Effect.provide(loopbackAllowed)))
    ).toBeNull()
  })
})
