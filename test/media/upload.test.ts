import { crc32, deflateSync } from "node:zlib"
import sharp from "sharp"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { type Harness, readJson, startHarness, uploadJson, uploadMultipart } from "./harness.ts"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const noisyPng = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 40, g: 120, b: 200 },
      noise: { type: "gaussian", mean: 128, sigma: 40 }
    }
  })
    .png()
    .toBuffer()

/** A 1-bit grayscale PNG of zeros: tens of kilobytes that would decode to hundreds of megapixels. */
const pngBomb = (width: number, height: number) => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data])
    const out = Buffer.alloc(12 + data.length)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 1 // bit depth
  ihdr[9] = 0 // grayscale
  const rows = Buffer.alloc((Math.ceil(width / 8) + 1) * height)
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0))
  ])
}

const expectPreview = async (previewUrl: string, apiKey: string, width = 480) => {
  const res = await fetch(`${h.baseUrl}${previewUrl}`, { headers: { authorization: `Bearer ${apiKey}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toMatch(/^image\/jpeg/)
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
  expect(meta.format).toBe("jpeg")
  expect(meta.width).toBe(width)
  return meta
}

const leftovers = (workspaceId: string) =>
  h.run(
    Effect.gen(function* () {
      return { records: yield* (yield* MediaRepo).countByWorkspace(workspaceId), blobs: (yield* StoredBlobs).keys() }
    })
  )

describe("POST /media (images)", () => {
  it("multipart PNG: fields, absolute url with the same bytes, and a 480 px JPEG preview", async () => {
    const { apiKey } = await h.signup()
    const png = await noisyPng(1200, 800)
    const res = await uploadMultipart(h, apiKey, png, "photo.png", "image/png")
    expect(res.status).toBe(201)
    const { media } = await readJson(res)
    expect(media).toMatchObject({
      type: "image",
      mimeType: "image/png",
      filename: "photo.png",
      sizeBytes: png.length,
      width: 1200,
      height: 800
    })
    expect(media.id).toMatch(/^med_/)
    expect(media.durationMs).toBeUndefined()
    expect(media.previewUrl).toBe(`/api/v1/media/${media.id}/preview`)
    expect(media.url.startsWith(`${h.baseUrl}/files/`)).toBe(true)
    const file = await fetch(media.url)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("image/png")
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true)
    const preview = await expectPreview(media.previewUrl, apiKey)
    expect(preview.height).toBe(320)
    const again = await fetch(`${h.api}/media/${media.id}`, { headers: { authorization: `Bearer ${apiKey}` } })
    expect((await readJson(again)).media).toMatchObject({ id: media.id, sizeBytes: png.length })
  })

  it("JSON base64 PNG (and a data: URL) gives the same fields", async () => {
    const { apiKey } = await h.signup()
    const png = await noisyPng(640, 960)
    const res = await uploadJson(h, apiKey, {
      filename: "tall.png",
      contentType: "image/png",
      dataBase64: png.toString("base64")
    })
    expect(res.status).toBe(201)
    const { media } = await readJson(res)
    expect(media).toMatchObject({ type: "image", filename: "tall.png", sizeBytes: png.length, width: 640, height: 960 })
    await expectPreview(media.previewUrl, apiKey)
    // Fields in any order, a data: URL and escaped slashes are fine too.
    const raw = `{"dataBase64":"data:image/png;base64,${png.toString("base64").replace(/\//g, "\\/")}","filename":"x.png"}`
    const second = await fetch(`${h.api}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: raw
    })
    expect(second.status).toBe(201)
    expect((await readJson(second)).media).toMatchObject({ filename: "x.png", sizeBytes: png.length })
  })

  it("a text file named .png is unsupported_media_type, and nothing is kept", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const res = await uploadMultipart(
      h,
      apiKey,
      Buffer.from("hello, this is not an image\n".repeat(100)),
      "fake.png",
      "image/png"
    )
    expect(res.status).toBe(400)
    expect((await readJson(res)).error.code).toBe("unsupported_media_type")
    expect(await leftovers(workspaceId)).toEqual({ records: 0, blobs: expect.any(Array) })
  })

  it("a truncated PNG is media_unreadable, and leaves no blob or record", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const before = (await leftovers(workspaceId)).blobs.length
    const png = await noisyPng(800, 600)
    const res = await uploadMultipart(h, apiKey, png.subarray(0, Math.floor(png.length / 2)), "cut.png", "image/png")
    expect(res.status).toBe(400)
    const body = await readJson(res)
    expect(body.error.code).toBe("media_unreadable")
    const after = await leftovers(workspaceId)
    expect(after.records).toBe(0)
    expect(after.blobs.length).toBe(before)
  })

  it("a decompression bomb (huge dimensions, tiny file) is refused before decoding", async () => {
    const { apiKey } = await h.signup()
    const bomb = pngBomb(20000, 14000)
    expect(bomb.length).toBeLessThan(100_000)
    const res = await uploadMultipart(h, apiKey, bomb, "bomb.png", "image/png")
    expect(res.status).toBe(400)
    const body = await readJson(res)
    expect(body.error.code).toBe("media_unreadable")
    expect(body.error.details).toMatchObject({ reason: "too_many_pixels", width: 20000, height: 14000 })
  }, 60_000)

  it("the eleventh upload of an unclaimed workspace is claim_required", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#c33" } })
      .png()
      .toBuffer()
    for (let i = 0; i < 10; i++) expect((await uploadMultipart(h, apiKey, png, `p${i}.png`)).status).toBe(201)
    const res = await uploadMultipart(h, apiKey, png, "p10.png")
    expect(res.status).toBe(403)
    expect((await readJson(res)).error).toMatchObject({ code: "claim_required", retryable: false })
    expect((await leftovers(workspaceId)).records).toBe(10)
  })

  it("validation: no file field, JSON without dataBase64, malformed base64", async () => {
    const { apiKey } = await h.signup()
    const form = new FormData()
    form.append("note", "no file here")
    const noFile = await fetch(`${h.api}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      body: form
    })
    expect(noFile.status).toBe(400)
    expect((await readJson(noFile)).error).toMatchObject({ code: "validation_failed", details: { fields: ["file"] } })
    const noData = await uploadJson(h, apiKey, { filename: "a.png" })
    expect((await readJson(noData)).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["dataBase64"] }
    })
    const badData = await uploadJson(h, apiKey, { filename: "a.png", dataBase64: "iVBORw0KGgo*&^%" })
    expect((await readJson(badData)).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["dataBase64"] }
    })
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .png()
      .toBuffer()
    const noName = await uploadJson(h, apiKey, { dataBase64: png.toString("base64") })
    expect((await readJson(noName)).error).toMatchObject({
      code: "validation_failed",
      details: { fields: ["filename"] }
    })
    const notJson = await fetch(`${h.api}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: '{"filename": '
    })
    expect((await readJson(notJson)).error.code).toBe("invalid_json")
  })

  it("needs a key, and another workspace's upload is media_not_found", async () => {
    const a = await h.signup()
    const b = await h.signup()
    const png = await sharp({ create: { width: 500, height: 500, channels: 3, background: "#3c3" } })
      .png()
      .toBuffer()
    const anonymous = await fetch(`${h.api}/media`, { method: "POST", body: new FormData() })
    expect(anonymous.status).toBe(401)
    const { media } = await readJson(await uploadMultipart(h, a.apiKey, png, "mine.png"))
    const preview = await fetch(`${h.baseUrl}${media.previewUrl}`, { headers: { authorization: `Bearer ${b.apiKey}` } })
    expect(preview.status).toBe(404)
    expect((await readJson(preview)).error.code).toBe("media_not_found")
    const record = await fetch(`${h.api}/media/${media.id}`, { headers: { authorization: `Bearer ${b.apiKey}` } })
    expect((await readJson(record)).error.code).toBe("media_not_found")
  })
})
