import { Effect } from "effect"
import type { Media } from "../../../domain/media.ts"
import { BlobStore } from "../../ports/BlobStore.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { now } from "../common.ts"

/**
 * Removes one upload: its bytes and preview first, then its record. Answers false (record kept, for a
 * later try) when the bytes could not be removed. For deleting a workspace's uploads before the workspace.
 */
export const removeMedia = Effect.fnUntraced(function* (media: Media) {
  const blobs = yield* BlobStore
  const keys = media.previewKey === null ? [media.blobKey] : [media.blobKey, media.previewKey]
  const removed = yield* Effect.forEach(keys, (key) => blobs.delete(key), { discard: true }).pipe(
    Effect.as(true),
    Effect.catch((error) =>
      Effect.as(
        Effect.logWarning("Could not delete an upload's bytes", { mediaId: media.id, reason: error.reason }),
        false
      )
    )
  )
  if (removed) yield* (yield* MediaRepo).delete(media.id)
  return removed
})

/**
 * The media sweeper: removes the bytes, preview and record of up to `batch` uploads whose 7 days are
 * over. A record whose bytes could not be removed stays, so the next sweep tries again.
 * The scheduler calls this from its sweeper loop.
 */
export const sweepExpiredMedia = Effect.fn("sweepExpiredMedia")(function* (batch: number) {
  const expired = yield* (yield* MediaRepo).listExpired(yield* now, batch)
  let removed = 0
  for (const media of expired) if (yield* removeMedia(media)) removed++
  return { media: removed, failed: expired.length - removed }
})
