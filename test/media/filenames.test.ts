import sharp from "sharp"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { authenticateKey } from "../../application/usecases/auth.ts"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { callTool, type McpSession } from "../../hosts/mcp/server.ts"
import { uploadMediaTool } from "../../hosts/mcp/tools/media.ts"
import { type Harness, readJson, startHarness, uploadJson } from "./harness.ts"

let h: Harness
let png: Buffer
beforeAll(async () => {
  h = await startHarness()
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#36c" } })
    .png()
    .toBuffer()
})
afterAll(() => h?.close())

const stored = (workspaceId: string) =>
  h.run(
    Effect.gen(function* () {
      return {
        records: yield* (yield* MediaRepo).countByWorkspace(workspaceId),
        blobs: (yield* StoredBlobs).keys().length
      }
    })
  )

/** A multipart body written by hand, so the part's filename goes out byte for byte (FormData escapes CR, LF and quotes). */
const multipart = (h: Harness, apiKey: string, disposition: string, bytes: Uint8Array) => {
  const boundary = "----heraldNames"
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: image/png\r\n\r\n`,
      "utf8"
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`)
  ])
  return fetch(`${h.api}/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body
  })
}

const bad: ReadonlyArray<readonly [string, string]> = [
  ["text direction (right-to-left override)", "photo\u202egnp.exe"],
  ["zero-width space", "pho\u200bto.png"],
  ["escapeHtml", "photo\u001b[31m.png"],
  ["line feed", "photo\n.png"],
  ["carriage return", "photo\r.png"],
  ["NUL", "photo\u0000.png"],
  ["lone surrogate", "photo\ud800.png"],
  ["over 255 characters", `${"a".repeat(252)}.png`],
  ["blank", "   "]
]
const good = [
  "été.png",
  "Screenshot 2024-05-01 at 10.00.00\u202fAM.png",
  "نامه\u200cها.png",
  "family 👨\u200d👩\u200d👧.png",
  `${"a".repeat(251)}.png`
]

const expectRefused = async (res: Response, workspaceId: string, label: string) => {
  expect(res.status, label).toBe(400)
  expect((await readJson(res)).error, label).toMatchObject({
    code: "validation_failed",
    details: { fields: ["filename"] }
  })
  expect(await stored(workspaceId), label).toEqual({ records: 0, blobs: expect.any(Number) })
}

describe("upload filenames follow the label rules (domain/text.ts), whatever the way in", () => {
  it("JSON form: refused as validation_failed on filename, before anything is stored when the name comes first", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const blobs = (await stored(workspaceId)).blobs
    for (const [label, filename] of bad)
      await expectRefused(
        await uploadJson(h, apiKey, { filename, dataBase64: png.toString("base64") }),
        workspaceId,
        label
      )
    // The name after the bytes: refused once the body is in, and the stored bytes are removed.
    const late = await uploadJson(h, apiKey, { dataBase64: png.toString("base64"), filename: "late\u202e.png" })
    await expectRefused(late, workspaceId, "after the bytes")
    expect((await stored(workspaceId)).blobs).toBe(blobs)
  })

  it("JSON form: raw bytes that are not UTF-8 in the name are refused, not replaced", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const body = Buffer.concat([
      Buffer.from(`{"filename":"bad`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`.png","dataBase64":"${png.toString("base64")}"}`)
    ])
    const res = await fetch(`${h.api}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body
    })
    await expectRefused(res, workspaceId, "invalid UTF-8")
  })

  it("multipart: the part's filename (plain or RFC 5987) is refused before any of the file is stored", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const blobs = (await stored(workspaceId)).blobs
    // Raw control characters cannot be sent in a header at all (the parser refuses the body as malformed): only filename* carries them.
    for (const [label, filename] of bad.filter(([, name]) => !/[\u0000-\u001f]/.test(name) && name.isWellFormed()))
      await expectRefused(await multipart(h, apiKey, `filename="${filename}"`, png), workspaceId, label)
    const raw = await multipart(h, apiKey, `filename="photo\u001b.png"`, png)
    expect((await readJson(raw)).error).toMatchObject({ code: "validation_failed", details: { fields: ["file"] } })
    for (const [label, filename] of bad.filter(([, name]) => name.isWellFormed()))
      await expectRefused(
        await multipart(h, apiKey, `filename="x.png"; filename*=UTF-8''${encodeURIComponent(filename)}`, png),
        workspaceId,
        `${label} (filename*)`
      )
    expect((await stored(workspaceId)).blobs).toBe(blobs)
  })

  it("names with accents, narrow spaces, joiners inside words and emoji are kept as given", async () => {
    const { apiKey } = await h.signup()
    for (const filename of good) {
      const res = await uploadJson(h, apiKey, { filename, dataBase64: png.toString("base64") })
      expect(res.status, filename).toBe(201)
      expect((await readJson(res)).media.filename).toBe(filename)
    }
    const res = await multipart(h, apiKey, `filename="x.png"; filename*=UTF-8''${encodeURIComponent(good[1])}`, png)
    expect((await readJson(res)).media.filename).toBe(good[1])
  })

  it("MCP upload_media: refused as a validation_failed tool error on filename", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const actor = await h.run(authenticateKey(apiKey))
    const session: McpSession = {
      run: (effect) => h.run(Effect.exit(effect)),
      context: () => ({ actor, transport: "http" as const, ip: "10.0.0.1", acceptLanguage: undefined })
    }
    for (const [label, filename] of bad) {
      const result = await callTool([uploadMediaTool("http")], session, "upload_media", {
        filename,
        dataBase64: png.toString("base64")
      })
      expect(result.isError, label).toBe(true)
      expect(JSON.parse((result.content[0] as { text: string }).text).error, label).toMatchObject({
        code: "validation_failed",
        details: { fields: ["filename"] }
      })
    }
    expect((await stored(workspaceId)).records).toBe(0)
    const fine = await callTool([uploadMediaTool("http")], session, "upload_media", {
      filename: good[0],
      dataBase64: png.toString("base64")
    })
    expect(fine.structuredContent).toMatchObject({ media: { filename: good[0] } })
  })
})
