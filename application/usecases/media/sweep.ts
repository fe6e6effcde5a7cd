import { Effect } from "effect"
import { BlobStore } from "../../ports/BlobStore.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { now } from "../common.ts"

/**
 * The media sweeper: removes the bytes, preview and record of up to `batch` uploads whose 7 days are
 * over. A record whose bytes could not be removed stays, so the next sweep tries again.
 * The scheduler calls this from its sweeper loop.
 */
export const sweepExpiredMedia = Effect.fn("sweepExpiredMedia")(function* (batch: number) {
  const blobs = yield* BlobStore
  const repo = yield* MediaRepo
  const expired = yield* repo.listExpired(yield* now, batch)
  let removed = 0
  let failed = 0
  for (const media of expired) {
    const keys = media.previewKey === null ? [media.blobKey] : [media.blobKey, media.previewKey]
    const ok = yield* Effect.forEach(keys, (key) => blobs.delete(key), { discard: true }).pipe(
      Effect.as(true),
      Effect.catch((error) => Effect.as(Effect.logWarning("Media sweep could not delete bytes", { mediaId: media.id, reason: error.reason }), false))
    )
    if (!ok) {
      failed++
      continue
    }
    yield* repo.delete(media.id)
    removed++
  }
  return { media: removed, failed }
})
