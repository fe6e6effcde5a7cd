import { MIN_CHUNK } from "./config.ts"

/** How a video goes up (TikTok's media transfer guide): the chunk size, the chunk count, each chunk's bytes. */
export interface ChunkPlan {
  readonly chunkSize: number
  readonly count: number
  /** Bytes of each chunk in order: all `chunkSize` but the last, which takes the rest (up to twice as big). */
  readonly sizes: ReadonlyArray<number>
}

/**
 * A video under 5 MB goes as one chunk of its size; a larger one in chunks of `preferred` (5-64 MB),
 * `floor(size / chunkSize)` of them, the last taking the remainder as the guide says.
 */
export const chunkPlan = (size: number, preferred: number): ChunkPlan => {
  if (size < MIN_CHUNK) return { chunkSize: size, count: 1, sizes: [size] }
  const chunkSize = Math.min(preferred, size)
  const count = Math.floor(size / chunkSize)
  return {
    chunkSize,
    count,
    sizes: Array.from({ length: count }, (_, i) => (i < count - 1 ? chunkSize : size - chunkSize * (count - 1)))
  }
}
