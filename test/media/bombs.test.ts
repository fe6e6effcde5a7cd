import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MediaRepo } from "../../application/ports/MediaRepo.ts"
import { StoredBlobs } from "../../adapters/memory/MemoryBlobStore.ts"
import { animatedGif, animatedWebp, flatPng } from "./fixtures.ts"
import { type Harness, readJson, startHarness, uploadMultipart } from "./harness.ts"

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const MiB = 1024 * 1024
const stored = (workspaceId: string) =>
  h.run(
    Effect.gen(function* () {
      return {
        records: yield* (yield* MediaRepo).countByWorkspace(workspaceId),
        blobs: (yield* StoredBlobs).keys().length
      }
    })
  )

const refused = async (bytes: Uint8Array, name: string) => {
  const { apiKey, workspaceId } = await h.signup()
  const before = await stored(workspaceId)
  const res = await uploadMultipart(h, apiKey, bytes, name)
  expect(res.status).toBe(400)
  const { error } = await readJson(res)
  expect(error.code).toBe("media_unreadable")
  expect(await stored(workspaceId)).toEqual(before)
  return error
}

describe("POST /media: images refused by what they take decoded, before they are decoded", () => {
  it("a 2 MB PNG of 16383 x 16383 16-bit RGBA (2 GB decoded) is media_unreadable, decoded_size_over_budget", async () => {
    const bomb = flatPng(16383, 16383, 16, "rgba")
    expect(bomb.length).toBeLessThan(2.5 * MiB)
    const error = await refused(bomb, "deep.png")
    expect(error.details).toEqual({
      reason: "decoded_size_over_budget",
      width: 16383,
      height: 16383,
      channels: 4,
      bytesPerSample: 2,
      pages: 1,
      decodedBytes: 16383 * 16383 * 8,
      budgetBytes: 256 * MiB
    })
    expect(error.message).toBeTruthy()
  })

  it("the budget counts channels and bytes: 9000 x 9000 RGB fits (243 MB), 9500 x 9500 does not (271 MB)", async () => {
    const { apiKey } = await h.signup()
    const fits = await uploadMultipart(h, apiKey, flatPng(9000, 9000, 8, "rgb"), "fits.png")
    expect(fits.status).toBe(201)
    expect((await readJson(fits)).media).toMatchObject({ width: 9000, height: 9000 })
    const error = await refused(flatPng(9500, 9500, 8, "rgb"), "over.png")
    expect(error.details).toMatchObject({
      reason: "decoded_size_over_budget",
      channels: 3,
      bytesPerSample: 1,
      decodedBytes: 9500 * 9500 * 3
    })
  }, 30_000)

  it("an animation counts all its frames: 100 frames of 1000 x 1000 RGB (300 MB) are over", async () => {
    const error = await refused(animatedGif(1000, 1000, 100), "long.gif")
    expect(error.details).toMatchObject({
      reason: "decoded_size_over_budget",
      width: 1000,
      height: 1000,
      pages: 100,
      decodedBytes: 1000 * 1000 * 3 * 100
    })
    const webp = await refused(animatedWebp(1000, 1000, 100), "long.webp")
    expect(webp.details).toMatchObject({ reason: "decoded_size_over_budget", pages: 100, channels: 4 })
  })

  it("GIF and WebP animations of more than 2,000 frames are refused before libvips reads them", async () => {
    for (const [bytes, name] of [
      [animatedGif(100, 100, 3000), "many.gif"],
      [animatedWebp(100, 100, 3000), "many.webp"]
    ] as const) {
      const error = await refused(bytes, name)
      expect(error.details).toEqual({ reason: "too_many_frames", maxFrames: 2000 })
    }
  })

  it("small animations are fine", async () => {
    const { apiKey } = await h.signup()
    for (const [bytes, name, type] of [
      [animatedGif(320, 240, 40), "ok.gif", "image/gif"],
      [animatedWebp(320, 240, 40), "ok.webp", "image/webp"]
    ] as const) {
      const res = await uploadMultipart(h, apiKey, bytes, name)
      expect(res.status).toBe(201)
      expect((await readJson(res)).media).toMatchObject({ mimeType: type, width: 320, height: 240 })
    }
  })
})
