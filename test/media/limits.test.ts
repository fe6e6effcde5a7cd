import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { REST_UPLOAD_LIMIT } from "../../application/usecases/media/upload.ts"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { type Harness, multipartParts, startHarness, streamPost } from "./harness.ts"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

// A PNG signature and header, so the type check passes and only the size can refuse the upload.
const pngStart = Buffer.from("89504e470d0a1a0a0000000d49484452000001e0000001e00806000000", "hex")
const fill = (offset: number, chunk: Buffer) => {
  chunk.fill(0)
  if (offset === 0) pngStart.copy(chunk)
}
const over = REST_UPLOAD_LIMIT + 1024

const state = (workspaceId: string) =>
  h.run(
    Effect.gen(function* () {
      return {
        records: yield* (yield* MediaRepo).countByWorkspace(workspaceId),
        blobs: (yield* StoredBlobs).keys().length
      }
    })
  )

describe("POST /media size limit (100 MB over REST)", () => {
  for (const chunked of [false, true]) {
    it(`100 MB + 1 KB multipart ${chunked ? "chunked (no Content-Length)" : "with Content-Length"} is 413 file_too_large, nothing kept`, async () => {
      const { apiKey, workspaceId } = await h.signup()
      const blobsBefore = (await state(workspaceId)).blobs
      const mp = multipartParts("big.png", "image/png")
      const res = await streamPost(
        `${h.api}/media`,
        { authorization: `Bearer ${apiKey}`, "content-type": mp.contentType },
        { head: mp.head, size: over, fill, tail: mp.tail },
        chunked
      )
      expect(res.status).toBe(413)
      expect(res.json().error).toMatchObject({ code: "file_too_large", retryable: false })
      expect(await state(workspaceId)).toEqual({ records: 0, blobs: blobsBefore })
    }, 60_000)
  }

  it("100 MB + 1 KB as chunked base64 JSON is 413 too", async () => {
    const { apiKey, workspaceId } = await h.signup()
    // Base64 of the same bytes, produced on the fly in 3-byte groups.
    const size = Math.ceil(over / 3) * 4
    const head = Buffer.from(`{"filename":"big.png","dataBase64":"`)
    const raw = Buffer.alloc(192 * 1024)
    const res = await streamPost(
      `${h.api}/media`,
      { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      {
        head,
        size,
        tail: Buffer.from(`"}`),
        fill: (offset, chunk) => {
          const start = (offset / 4) * 3
          fill(start, raw)
          chunk.write(raw.subarray(0, (chunk.length / 4) * 3).toString("base64"), "latin1")
        }
      },
      true
    )
    expect(res.status).toBe(413)
    expect(res.json().error.code).toBe("file_too_large")
    expect((await state(workspaceId)).records).toBe(0)
  }, 60_000)
})
