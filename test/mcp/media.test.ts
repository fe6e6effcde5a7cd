import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { MCP_UPLOAD_LIMIT } from "../../application/usecases/media/index.ts"
import { signUp } from "../../application/usecases/signup.ts"
import { callTool, type McpSession } from "../../hosts/mcp/server.ts"
import { uploadMediaTool } from "../../hosts/mcp/tools/media.ts"
import { continueConnectLink } from "../support/connectLink.ts"
import { uniqueEmail } from "../support/flows.ts"
import { type HttpHost, startHttpHost } from "../support/httpHost.ts"
import { connect, ok, toolError } from "./client.ts"

let host: HttpHost
let png: Buffer
beforeAll(async () => {
  host = await startHttpHost()
  png = await sharp({ create: { width: 960, height: 640, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .png()
    .toBuffer()
})
afterAll(() => host.close())

const keyed = async () => {
  const anonymous = await connect(host)
  const { apiKey } = await ok(anonymous, "sign_up", { email: uniqueEmail(), agentName: "Media agent" })
  await anonymous.close()
  return connect(host, apiKey)
}

describe("MCP media tools over Streamable HTTP", () => {
  it("uploads an image as base64, shows its preview, and posts it to a sandbox account", async () => {
    const client = await keyed()
    const { media } = await ok(client, "upload_media", { filename: "photo.png", dataBase64: png.toString("base64") })
    expect(media).toMatchObject({
      type: "image",
      mimeType: "image/png",
      filename: "photo.png",
      sizeBytes: png.length,
      width: 960,
      height: 640
    })
    expect(media.previewUrl).toBe(`/api/v1/media/${media.id}/preview`)

    const preview = (await client.callTool({
      name: "get_media_preview",
      arguments: { mediaId: media.id }
    })) as CallToolResult
    expect(preview.isError).toBeFalsy()
    expect(preview.structuredContent).toMatchObject({ mediaId: media.id, mimeType: "image/jpeg" })
    const image = preview.content.find((c) => c.type === "image") as { data: string; mimeType: string }
    expect(image.mimeType).toBe("image/jpeg")
    const meta = await sharp(Buffer.from(image.data, "base64")).metadata()
    expect(meta.format).toBe("jpeg")
    expect(meta.width).toBeGreaterThan(400)
    expect(meta.width).toBeLessThanOrEqual(480)

    const { url } = await ok(client, "connect_account", { platform: "sandbox" })
    const { next, cookie } = await continueConnectLink(host.local(url))
    const account = (
      (await (await fetch(host.local(next), { headers: { accept: "application/json", cookie } })).json()) as {
        account: { id: string }
      }
    ).account
    const { post } = await ok(client, "create_post", {
      accountIds: [account.id],
      content: "With a picture",
      mediaIds: [media.id]
    })
    expect(post).toMatchObject({ status: "needs_approval", mediaIds: [media.id] })
    await client.close()
  })

  it("an 11 MB upload gives a file_too_large tool error", async () => {
    const client = await keyed()
    const big = Buffer.alloc(11 * 1024 * 1024)
    png.copy(big)
    const error = await toolError(client, "upload_media", { filename: "big.png", dataBase64: big.toString("base64") })
    expect(error).toMatchObject({ code: "file_too_large", retryable: false, details: { maxBytes: MCP_UPLOAD_LIMIT } })
    await client.close()
  })

  it("a request body over 20 MiB is refused with 413 payload_too_large before any tool runs", async () => {
    const { apiKey } = await ok(await connect(host), "sign_up", { email: uniqueEmail() })
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "upload_media", arguments: { filename: "huge.png", dataBase64: "A".repeat(21 * 1024 * 1024) } }
    }
    const response = await fetch(`${host.origin}/mcp`, {
      method: "POST",
      body: JSON.stringify(call),
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      }
    })
    expect(response.status).toBe(413)
    expect(((await response.json()) as any).error).toMatchObject({
      code: "payload_too_large",
      details: { limitBytes: 20 * 1024 * 1024 }
    })
  })

  it("bad media arguments and bytes come back as tool errors", async () => {
    const client = await keyed()
    expect((await toolError(client, "upload_media", { filename: "x.png" })).details.fields).toEqual(["dataBase64"])
    expect(
      (await toolError(client, "upload_media", { filename: "x.png", dataBase64: "not base64!" })).details.fields
    ).toEqual(["dataBase64"])
    expect((await toolError(client, "upload_media", { path: "/etc/passwd" })).details.fields).toEqual(
      expect.arrayContaining(["path"])
    )
    expect(
      (
        await toolError(client, "upload_media", {
          filename: "x.txt",
          dataBase64: Buffer.from("just text").toString("base64")
        })
      ).code
    ).toBe("unsupported_media_type")
    expect((await toolError(client, "get_media_preview", { mediaId: "med_nope" })).code).toBe("media_not_found")
    await client.close()
  })

  it("over HTTP upload_media takes inline bytes only; the stdio variant also takes a local path", async () => {
    const client = await keyed()
    const upload = (await client.listTools()).tools.find((t) => t.name === "upload_media")!
    expect(Object.keys(upload.inputSchema.properties!)).toEqual(["filename", "dataBase64", "contentType"])
    expect(upload.description).toMatch(/10 MB/)
    expect(upload.description).toMatch(/7 days/)
    await client.close()
  })
})

// The file path form runs in the stdio process; exercised here through its own tool definition.
describe("upload_media from a local path (stdio variant)", () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "herald-mcp-media-"))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("reads the file, names the upload after it, and reports a missing file as a field error", async () => {
    const path = join(dir, "local.png")
    writeFileSync(path, png)
    const signed = await host.run(signUp({ body: { email: uniqueEmail() }, ip: "10.9.9.9" }))
    const actor = await host.run(authenticateKey(signed.body.apiKey!))
    const tools = [uploadMediaTool("stdio")]
    const session: McpSession = {
      run: (effect) => host.run(Effect.exit(effect)),
      context: () => ({ actor, transport: "stdio" as const, ip: "stdio", acceptLanguage: undefined })
    }
    const result = await callTool(tools, session, "upload_media", { path })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({
      media: { filename: "local.png", mimeType: "image/png", width: 960 }
    })
    const missing = await callTool(tools, session, "upload_media", { path: join(dir, "nope.png") })
    expect(missing.isError).toBe(true)
    expect(JSON.parse((missing.content[0] as { text: string }).text).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["path"] }
    })
    const both = await callTool(tools, session, "upload_media", { path, dataBase64: "AAAA", filename: "x.png" })
    expect(JSON.parse((both.content[0] as { text: string }).text).error.details.fields).toEqual(["path", "dataBase64"])
  })
})
