import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../support/flows.ts"
import { call, type HttpHost, startHttpHost } from "../support/httpHost.ts"

let host: HttpHost
let key = ""
beforeAll(async () => {
  host = await startHttpHost()
  key = (await signUp(host)).key
})
afterAll(() => host?.close())

/** Writes raw bytes on a fresh connection and reads all the server sends until it closes. */
const raw = (request: string | Buffer) =>
  new Promise<{ status: number; headers: string; body: any }>((resolve, reject) => {
    const { hostname, port } = new URL(host.origin)
    const socket = connect(Number(port), hostname, () => socket.write(request))
    const chunks: Array<Buffer> = []
    socket.on("data", (c) => chunks.push(c))
    socket.on("error", reject)
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1")
      const [head, ...rest] = text.split("\r\n\r\n")
      let body: unknown = rest.join("\r\n\r\n")
      try {
        body = JSON.parse(body as string)
      } catch {
        /* not JSON */
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head.toLowerCase(), body })
    })
  })

describe("Node's own client errors answer with the envelope", () => {
  it("bad bytes in a header are 400 malformed_request", async () => {
    const reply = await raw(
      Buffer.concat([
        Buffer.from("GET /api/v1/accounts HTTP/1.1\r\nHost: x\r\nX-Bad: a"),
        Buffer.from([0x01]),
        Buffer.from("b\r\n\r\n")
      ])
    )
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatchObject({ code: "malformed_request", retryable: false })
    expect(reply.headers).toContain("connection: close")
    expect(reply.headers).toContain("content-type: application/json")
    expect(reply.headers).toContain("x-content-type-options: nosniff")
  })

  it("headers over Node's limit are 431 headers_too_large", async () => {
    const reply = await raw(`GET /api/v1/accounts HTTP/1.1\r\nHost: x\r\nCookie: ${"a".repeat(20_000)}\r\n\r\n`)
    expect(reply.status).toBe(431)
    expect(reply.body.error).toMatchObject({ code: "headers_too_large" })
  })

  it("a malformed request line is 400 malformed_request", async () => {
    const reply = await raw("GARBAGE\r\n\r\n")
    expect(reply.status).toBe(400)
    expect(reply.body.error.code).toBe("malformed_request")
  })
})

describe("routing", () => {
  it("a path parameter of any length is 404 not_found for a method the path takes, not 405", async () => {
    for (const [method, path] of [
      ["GET", `/posts/${"x".repeat(101)}`],
      ["GET", `/media/${"m".repeat(150)}`],
      ["GET", `/media/${"m".repeat(150)}/preview`],
      ["POST", `/posts/${"p".repeat(101)}/approve`],
      ["POST", `/keys/${"k".repeat(200)}/revoke`],
      ["GET", `/connect/${"c".repeat(101)}`]
    ] as const) {
      const reply = await call(host, method, path, { key })
      expect(reply.status, `${method} ${path.slice(0, 20)}`).toBe(404)
      expect(reply.body.error.code).toBe("not_found")
    }
  })

  it("a method the path does not take is still 405 with Allow, also with a long parameter", async () => {
    const reply = await call(host, "DELETE", `/posts/${"x".repeat(101)}`, { key })
    expect(reply.status).toBe(405)
    expect(reply.headers.get("allow")).toBe("GET, PATCH")
    expect((await call(host, "DELETE", "/posts", { key })).status).toBe(405)
  })
})

describe("Authorization: Bearer is read one way by REST, MCP and the fast path", () => {
  const mcp = (authorization: string) =>
    fetch(`${host.origin}/mcp`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_accounts", arguments: {} }
      })
    })
  const rest = (authorization: string) => fetch(`${host.base}/accounts`, { headers: { authorization } })
  const fast = (authorization: string) =>
    fetch(`${host.base}/posts`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ accountIds: ["acc_x"], content: "x" })
    })

  it("refuses a tab, no separator, or a credential that is not a token", async () => {
    for (const header of [
      `Bearer\t${key}`,
      `Bearer${key}`,
      `Bearer ${key} extra`,
      `Basic ${key}`,
      "Bearer ",
      `Bearer \t${key}`
    ]) {
      expect((await rest(header)).status, JSON.stringify(header)).toBe(401)
      expect((await mcp(header)).status, JSON.stringify(header)).toBe(401)
      expect((await fast(header)).status, JSON.stringify(header)).toBe(401)
    }
  })

  it("takes the scheme in any case and one or more spaces", async () => {
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`]) {
      expect((await rest(header)).status, header).toBe(200)
      expect((await mcp(header)).status, header).toBe(200)
      expect((await fast(header)).status, header).not.toBe(401)
    }
  })
})
