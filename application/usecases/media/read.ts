import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { fail } from "../../../domain/errors.ts"
import { isWellFormedId } from "../../../domain/ids.ts"
import { isExpired } from "../../../domain/media.ts"
import { BlobStore } from "../../ports/BlobStore.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { now } from "../common.ts"
import { storageFailure } from "./errors.ts"
import { collectBytes } from "./stream.ts"
import { mediaView } from "./view.ts"

/** An upload of the caller's workspace that has not expired. */
const loadMedia = Effect.fnUntraced(function* (actor: Actor, id: string) {
  if (!isWellFormedId(id)) return yield* Effect.fail(fail("media_not_found", { mediaIds: [id] }))
  const found = yield* (yield* MediaRepo).findById(actor.workspaceId, id)
  if (Option.isNone(found)) return yield* Effect.fail(fail("media_not_found", { mediaIds: [id] }))
  if (isExpired(found.value, yield* now)) return yield* Effect.fail(fail("media_expired", { mediaIds: [id] }))
  return found.value
})

export const getMedia = Effect.fn("getMedia")(function* (actor: Actor, id: string) {
  const media = yield* loadMedia(actor, id)
  const url = yield* Effect.catchTag((yield* BlobStore).url(media.blobKey), "BlobError", storageFailure)
  return { media: mediaView(media, url) }
})

/** The preview JPEG's bytes (a few tens of kilobytes, so gathered whole). */
export const getPreview = Effect.fn("getPreview")(function* (actor: Actor, id: string) {
  const media = yield* loadMedia(actor, id)
  if (media.previewKey === null) return yield* Effect.fail(fail("preview_not_found", { mediaId: id }))
  return yield* collectBytes((yield* BlobStore).get(media.previewKey)).pipe(
    Effect.catchTags({
      BlobNotFound: () => Effect.fail(fail("preview_not_found", { mediaId: id })),
      BlobError: storageFailure
    })
  )
})
