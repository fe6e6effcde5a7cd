import { describe, expect, it } from "vitest"
import { chunkPlan } from "../../../adapters/networks/tiktok/chunks.ts"

const MB = 1024 * 1024

describe("TikTok's chunks (media transfer guide)", () => {
  it("under 5 MB: one chunk of the whole size", () => {
    expect(chunkPlan(4 * MB, 10_000_000)).toEqual({ chunkSize: 4 * MB, count: 1, sizes: [4 * MB] })
  })
  it("larger: floor(size / chunk) chunks, the last taking the remainder", () => {
    expect(chunkPlan(12 * MB, 5 * MB)).toEqual({ chunkSize: 5 * MB, count: 2, sizes: [5 * MB, 7 * MB] })
    expect(chunkPlan(50_000_123, 10_000_000)).toEqual({
      chunkSize: 10_000_000,
      count: 5,
      sizes: [10_000_000, 10_000_000, 10_000_000, 10_000_000, 10_000_123]
    })
    expect(chunkPlan(7 * MB, 10_000_000)).toEqual({ chunkSize: 7 * MB, count: 1, sizes: [7 * MB] })
  })
})
