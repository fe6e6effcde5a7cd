import { request } from "node:http"
import { crc32 } from "node:zlib"
import sharp from "sharp"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { type Harness, multipartParts, readJson, startHarness } from "./harness.ts"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const state = (workspaceId: string) =>
  h.run(
    Effect.gen(function* () {
      return {
        records: yield* (yield* MediaRepo).countByWorkspace(workspaceId),
        blobs: (yield* StoredBlobs).keys().length
      }
    })
  )

/** A PNG with a private ancillary chunk (which decoders skip) holding `extra`. */
const pngWith = async (extra: Buffer) => {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#284" } })
    .png()
    .toBuffer()
  const body = Buffer.concat([Buffer.from("hrLd", "latin1"), extra])
  const chunk = Buffer.alloc(12 + extra.length)
  chunk.writeUInt32BE(extra.length, 0)
  body.copy(chunk, 4)
  chunk.writeUInt32BE(crc32(body), 8 + extra.length)
  // Right after IHDR (8-byte signature + 25-byte IHDR chunk).
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)])
}

interface Sent {
  readonly status: number
  readonly body: string
}

/** Writes the body in pieces of `piece` bytes, waiting for `100 Continue` first when asked to. */
const send = (headers: Record<string, string>, body: Buffer, piece: number, expectContinue = false) =>
  new Promise<Sent>((resolve, reject) => {
    const req = request(
      `${h.api}/media`,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-length": String(body.length),
          ...(expectContinue ? { expect: "100-continue" } : {})
        }
      },
      (res) => {
        let text = ""
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on("error", reject)
    const write = () => {
      for (let at = 0; at < body.length; at += piece) req.write(body.subarray(at, at + piece))
      req.end()
    }
    if (expectContinue) req.on("continue", write)
    else write()
  })

describe("POST /media bodies read off the socket", () => {
  it("bytes that look like the boundary are kept, byte for byte, however the body arrives", async () => {
    const { apiKey } = await h.signup()
    const mp = multipartParts("tricky.png", "image/png")
    const boundary = mp.contentType.split("boundary=")[1]
    const png = await pngWith(
      Buffer.from(["\r\n--" + boundary.slice(0, -1), "\r\n-", "\r", "--" + boundary, "\r\n--"].join("."), "latin1")
    )
    for (const piece of [7, 1000, 65536]) {
      const res = await send(
        { authorization: `Bearer ${apiKey}`, "content-type": mp.contentType },
        Buffer.concat([mp.head, png, mp.tail]),
        piece
      )
      expect(res.status, res.body).toBe(201)
      const { media } = JSON.parse(res.body)
      expect(media).toMatchObject({ filename: "tricky.png", sizeBytes: png.length, width: 64, height: 48 })
      expect(Buffer.from(await (await fetch(media.url)).arrayBuffer()).equals(png)).toBe(true)
    }
  })

  it("answers Expect: 100-continue before the body is sent", async () => {
    const { apiKey } = await h.signup()
    const mp = multipartParts("continue.png", "image/png")
    const png = await pngWith(Buffer.from("x"))
    const res = await send(
      { authorization: `Bearer ${apiKey}`, "content-type": mp.contentType },
      Buffer.concat([mp.head, png, mp.tail]),
      65536,
      true
    )
    expect(res.status, res.body).toBe(201)
  })

  it("fields around the file are read past, and a second file part is not kept", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const first = await pngWith(Buffer.from("first"))
    const form = new FormData()
    form.append("note", "before the file")
    form.append("file", new Blob([first], { type: "image/png" }), "first.png")
    form.append("file", new Blob([await pngWith(Buffer.from("second"))], { type: "image/png" }), "second.png")
    form.append("after", '{"a":1}')
    const res = await fetch(`${h.api}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      body: form
    })
    expect(res.status).toBe(201)
    const { media } = await readJson(res)
    expect(media.filename).toBe("first.png")
    expect(Buffer.from(await (await fetch(media.url)).arrayBuffer()).equals(first)).toBe(true)
    // The upload and its preview, nothing of the second part.
    expect(await state(workspaceId)).toEqual({ records: 1, blobs: expect.any(Number) })
  })

  it("a client that goes away mid-body leaves nothing behind, and the server goes on", async () => {
    const { apiKey, workspaceId } = await h.signup()
    const before = await state(workspaceId)
    const mp = multipartParts("gone.png", "image/png")
    const png = await pngWith(Buffer.alloc(0))
    await new Promise<void>((resolve) => {
      const req = request(`${h.api}/media`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": mp.contentType,
          "content-length": String(50 * 1024 * 1024)
        }
      })
      req.on("error", () => resolve())
      req.write(mp.head)
      req.write(png)
      req.write(Buffer.alloc(2 * 1024 * 1024), () =>
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      )
    })
    await new Promise((r) => setTimeout(r, 300))
    expect(await state(workspaceId)).toEqual(before)
    const mp2 = multipartParts("after.png", "image/png")
    const res = await send(
      { authorization: `Bearer ${apiKey}`, "content-type": mp2.contentType },
      Buffer.concat([mp2.head, png, mp2.tail]),
      65536
    )
    expect(res.status, res.body).toBe(201)
  })
})
