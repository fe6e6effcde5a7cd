import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { continueConnectLink } from "../support/connectLink.ts"
import { uniqueEmail } from "../support/flows.ts"
import { ok, toolError } from "./client.ts"

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })

const command = { command: process.execPath, args: ["--import", "tsx", "hosts/mcp/stdio.ts"], cwd: process.cwd() }
let dataDir: string
let port: number
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "herald-mcp-stdio-"))
  port = await freePort()
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe("MCP over stdio (hosts/mcp/stdio.ts)", () => {
  it("starts key-less, adopts the key sign_up returns, connects a sandbox account, uploads a local file and posts", async () => {
    const client = new Client({ name: "herald-stdio-test", version: "1.0.0" })
    const stderr: Array<string> = []
    const transport = new StdioClientTransport({
      ...command,
      env: { ...process.env, HERALD_DATA_DIR: dataDir, PORT: String(port), HERALD_API_KEY: "" } as Record<
        string,
        string
      >,
      stderr: "pipe"
    })
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()))
    try {
      await client.connect(transport)
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["sign_up"])
      expect((await toolError(client, "list_accounts")).code).toBe("unauthorized")

      const changed = new Promise<void>((done) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => done())
      )
      const signed = await ok(client, "sign_up", { email: uniqueEmail(), agentName: "Stdio agent" })
      expect(signed.apiKey).toMatch(/^hrld_/)
      await changed
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain("create_post")

      const { url } = await ok(client, "connect_account", { platform: "sandbox" })
      expect(url).toContain(`http://localhost:${port}/connect/sandbox/start?state=`)
      const { next, cookie } = await continueConnectLink(url)
      expect(next).toContain(`http://localhost:${port}/connect/sandbox/callback`)
      const done = await fetch(next, { headers: { accept: "application/json", cookie } })
      expect(done.status).toBe(200)
      const { accounts } = await ok(client, "list_accounts")
      expect(accounts).toMatchObject([{ platform: "sandbox" }])
      const image = join(dataDir, "from-disk.png")
      writeFileSync(
        image,
        await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a0" } })
          .png()
          .toBuffer()
      )
      const { media } = await ok(client, "upload_media", { path: image })
      expect(media).toMatchObject({ filename: "from-disk.png", mimeType: "image/png", width: 64, height: 48 })
      const { post } = await ok(client, "create_post", {
        accountIds: [accounts[0].id],
        content: "From stdio",
        mediaIds: [media.id]
      })
      expect(post.status).toBe("needs_approval")
    } finally {
      await client.close()
    }
    expect(stderr.join("")).toContain("Herald MCP on stdio")
  }, 60_000)

  it("refuses to start with a wrong HERALD_API_KEY, saying why on stderr", () => {
    const result = spawnSync(command.command, command.args, {
      cwd: command.cwd,
      input: "",
      encoding: "utf8",
      timeout: 30_000,
      env: {
        ...process.env,
        HERALD_DATA_DIR: mkdtempSync(join(tmpdir(), "herald-mcp-bad-")),
        PORT: "0",
        HERALD_API_KEY: "hrld_wrong"
      }
    })
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain("HERALD_API_KEY is not a valid Herald API key")
    expect(result.stdout).toBe("")
  }, 60_000)
})
