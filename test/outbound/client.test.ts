import { createServer as createHttpServer, type Server } from "node:http"
import { createServer as createNetServer, type Socket } from "node:net"
import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BodyTooLarge, causeOf, make, type Policy, policies, TimedOut } from "../../adapters/outbound/client.ts"
import { AddressRefused } from "../../adapters/outbound/guard.ts"

/** A page server on loopback: what each path does, and every path asked. */
let server: Server
let origin = ""
const asked: Array<string> = []

beforeAll(async () => {
  server = createHttpServer((req, res) => {
    asked.push(req.url ?? "")
    if (req.url === "/big") return res.writeHead(200, { "content-type": "text/html" }).end("x".repeat(10_000))
    if (req.url === "/hang") return
    if (req.url?.startsWith("/to?"))
      return res.writeHead(302, { location: new URL(req.url, "http://x").searchParams.get("u")! }).end()
    res.writeHead(200, { "content-type": "text/plain" }).end(`hello ${req.url}`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const strict = make({ allowLoopback: false, maxSocketsPerHost: 4 })
const loose = make({ allowLoopback: true, maxSocketsPerHost: 4 })
const guarded: Policy = { ...policies.page, timeoutMs: 2000, maxRedirects: 3 }

const get = (outbound: typeof strict, policy: Policy, url: string) =>
  Effect.runPromise(
    outbound
      .client(policy)
      .execute(HttpClientRequest.get(url))
      .pipe(
        Effect.flatMap((r) => Effect.map(r.text, (text) => ({ status: r.status, text }))),
        Effect.catch((e) => Effect.succeed({ error: causeOf(e) }))
      )
  )

describe("the outbound client", () => {
  it("a guarded call to a loopback or private host is refused before a byte leaves, by name or literal", async () => {
    const port = new URL(origin).port
    const before = asked.length
    for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "[::ffff:0:127.0.0.1]", "[::1]"]) {
      const answer = await get(strict, guarded, `http://${host}:${port}/secret`)
      expect("error" in answer && answer.error, host).toBeInstanceOf(AddressRefused)
    }
    for (const host of ["10.0.0.1", "[64:ff9b::a9fe:a9fe]", "[2002:a00:1::]", "169.254.169.254"]) {
      const answer = await get(loose, guarded, `http://${host}:${port}/secret`)
      expect("error" in answer && (answer.error as AddressRefused).kind, host).toBe("private")
    }
    expect(asked.length, "no request reached the server").toBe(before)
    // Allowed loopback reaches it; an unguarded call (a host from configuration) is not judged.
    expect(await get(loose, guarded, `http://localhost:${port}/ok`)).toEqual({ status: 200, text: "hello /ok" })
    expect(await get(strict, policies.network, `${origin}/conf`)).toEqual({ status: 200, text: "hello /conf" })
  })

  it("every redirect hop is judged again: a page that sends the reader inside gets nothing", async () => {
    const before = asked.length
    const hop = await get(loose, guarded, `${origin}/to?u=${encodeURIComponent("http://[::ffff:a9fe:a9fe]/latest")}`)
    expect("error" in hop && (hop.error as AddressRefused).kind).toBe("private")
    expect(asked.slice(before)).toEqual([`/to?u=${encodeURIComponent("http://[::ffff:a9fe:a9fe]/latest")}`])
    // A followed redirect to an allowed host arrives; a policy with no redirects returns the 3xx itself.
    expect(await get(loose, guarded, `${origin}/to?u=${encodeURIComponent(`${origin}/there`)}`)).toEqual({
      status: 200,
      text: "hello /there"
    })
    const asIs = await get(loose, { ...guarded, maxRedirects: 0 }, `${origin}/to?u=/there`)
    expect("status" in asIs && asIs.status).toBe(302)
  })

  it("the body cap cuts a page's head or refuses; a hanging host times out", async () => {
    const head = await get(loose, { ...guarded, maxBodyBytes: 1000 }, `${origin}/big`)
    expect("text" in head && head.text.length).toBe(1000)
    const refused = await get(loose, { ...guarded, maxBodyBytes: 1000, overflow: "fail" }, `${origin}/big`)
    expect("error" in refused && refused.error).toBeInstanceOf(BodyTooLarge)
    const started = Date.now()
    const hung = await get(loose, { ...guarded, timeoutMs: 300 }, `${origin}/hang`)
    expect("error" in hung && hung.error).toBeInstanceOf(TimedOut)
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it("the fetch it lends libraries goes through the same guard", async () => {
    await expect(strict.fetch(guarded)(`${origin}/x`)).rejects.toThrow(/fetch failed/)
    const response = await loose.fetch(guarded)(`${origin}/y`, { method: "POST", body: "hi" })
    expect(await response.text()).toBe("hello /y")
  })
})

describe("a request on a kept-alive socket the server has closed", () => {
  // A server that answers the first request on each connection and resets the connection when a second
  // one comes on it, unanswered and unread: what a server that closed an idle connection looks like.
  let port = 0
  let answered = 0
  let dropped = 0
  const sockets = new Set<Socket>()
  const raw = createNetServer((socket) => {
    sockets.add(socket)
    let seen = 0
    socket.on("data", (chunk) => {
      if (!chunk.toString("latin1").includes("\r\n\r\n")) return
      seen += 1
      if (seen === 1) {
        answered += 1
        socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok")
      } else {
        dropped += 1
        socket.resetAndDestroy()
      }
    })
    socket.on("error", () => {})
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve))
    port = (raw.address() as { port: number }).port
  })
  afterAll(() => {
    for (const s of sockets) s.destroy()
    raw.close()
  })

  const call = (method: "GET" | "POST", policy: Policy) =>
    Effect.runPromise(
      make({ allowLoopback: true, maxSocketsPerHost: 1 })
        .client(policy)
        .execute(HttpClientRequest.make(method)(`http://127.0.0.1:${port}/`))
        .pipe(Effect.map((r) => r.status))
    )

  const twice = async (method: "GET" | "POST", policy: Policy) => {
    const outbound = make({ allowLoopback: true, maxSocketsPerHost: 1 })
    const once = () =>
      Effect.runPromise(
        outbound
          .client(policy)
          .execute(
            HttpClientRequest.make(method)(`http://127.0.0.1:${port}/`).pipe(
              HttpClientRequest.bodyText(method === "POST" ? "x" : "")
            )
          )
          .pipe(
            Effect.map((r) => r.status),
            Effect.catch((e) => Effect.succeed((causeOf(e) as { code?: string }).code))
          )
      )
    return [await once(), await once()]
  }

  it("is sent once more on a fresh socket when it is safe (GET) or the caller says it is idempotent", async () => {
    expect(await call("GET", policies.network)).toBe(200)
    expect(await twice("GET", policies.network)).toEqual([200, 200])
    expect(await twice("POST", { ...policies.network, idempotent: true })).toEqual([200, 200])
  })

  it("a whole POST the server may have read is not resent: the caller learns there was no answer", async () => {
    const before = { answered, dropped }
    expect(await twice("POST", policies.network)).toEqual([200, "ECONNRESET"])
    expect({ answered: answered - before.answered, dropped: dropped - before.dropped }).toEqual({
      answered: 1,
      dropped: 1
    })
  })
})
