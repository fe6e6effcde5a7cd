import { Effect, Exit, Option, Stream } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { fail, type HeraldError } from "../../../domain/errors.ts"
import { acceptedMediaTypes, type Media, MEDIA_LIFETIME_MS } from "../../../domain/media.ts"
import { planLimits } from "../../../domain/workspace.ts"
import { BlobStore } from "../../ports/BlobStore.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { MediaProbe } from "../../ports/MediaProbe.ts"
import { MediaRepo } from "../../ports/MediaRepo.ts"
import { Store } from "../../ports/Store.ts"
import { WorkspaceRepo } from "../../ports/WorkspaceRepo.ts"
import { now } from "../common.ts"
import { storageFailure } from "./errors.ts"
import { checkFilename, shownFilename } from "./filename.ts"
import { limitBytes, readHead } from "./stream.ts"
import { mediaView } from "./view.ts"

/** Size limits per caller: the spec's 100 MB over REST and 10 MB over MCP (binary megabytes, the generous reading). */
export const REST_UPLOAD_LIMIT = 100 * 1024 * 1024
export const MCP_UPLOAD_LIMIT = 10 * 1024 * 1024

/** File extension per accepted type, so stored objects and their URLs carry a familiar suffix. */
const extensions: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/x-m4v": "m4v",
  "video/webm": "webm",
  "video/x-msvideo": "avi",
  "video/vnd.avi": "avi",
  "video/mpeg": "mpg",
  "video/MP1S": "mpg",
  "video/MP2P": "mpg"
}

const checkQuota = Effect.fnUntraced(function* (workspaceId: string) {
  const workspace = yield* (yield* WorkspaceRepo).findById(workspaceId)
  if (Option.isNone(workspace)) return yield* Effect.fail(fail("workspace_not_found"))
  if (workspace.value.claimed) return
  const limit = planLimits[workspace.value.plan].uploadsWhileUnclaimed
  const count = yield* (yield* MediaRepo).countByWorkspace(workspaceId)
  if (count >= limit) return yield* Effect.fail(fail("claim_required", { limit, uploads: count }))
})

/**
 * Stores one upload. The body streams through a byte counter to the blob store (and, for stores
 * without local files, to the probe's scratch copy at once), so it is never held whole in memory;
 * the type comes from its first bytes.
 * `filename` may be an effect for bodies that name the file after the bytes (JSON); the host's reader
 * should refuse a bad name as soon as it sees it (filename.ts), this checks it again. A refused or
 * failed upload (any error, or the caller going away) leaves no blob and no record behind.
 * The body's chunks may be handed over (ports/chunkHandover.ts): the store frees them once written.
 */
export const uploadMedia = Effect.fn("uploadMedia")(function* (
  actor: Actor,
  filename: string | Effect.Effect<string, HeraldError>,
  body: Stream.Stream<Uint8Array, HeraldError>,
  maxBytes: number
) {
  // A name known up front is checked before anything is read or stored.
  if (typeof filename === "string") yield* checkFilename(filename)
  const probe = yield* MediaProbe
  const blobs = yield* BlobStore
  const crypto = yield* Crypto
  const written: Array<string> = []
  const put = (key: string, bytes: Stream.Stream<Uint8Array, HeraldError>, contentType: string) => {
    written.push(key)
    return Effect.catchTag(blobs.put(key, bytes, contentType), "BlobError", storageFailure)
  }

  const media = yield* Effect.scoped(
    Effect.gen(function* () {
      // The quota is checked while the first bytes arrive; a refusal stops the body there.
      const [, { head, body: whole }] = yield* Effect.all(
        [checkQuota(actor.workspaceId), readHead(limitBytes(body, maxBytes), probe.sniffBytes)],
        { concurrency: 2 }
      )
      const mimeType = Option.getOrNull(yield* probe.sniff(head))
      const type = mimeType === null ? undefined : acceptedMediaTypes[mimeType]
      if (mimeType === null || type === undefined)
        return yield* Effect.fail(fail("unsupported_media_type", { detected: mimeType }))

      const id = yield* crypto.id("med")
      // The URL of a local file is public (networks fetch it), so its key carries a secret part.
      const secret = (yield* crypto.token()).slice(0, 22)
      const ext = extensions[mimeType] ?? "bin"
      const blobKey = `media/${id}/${secret}.${ext}`
      // A store that keeps local files is read in place; any other gets a scratch copy written alongside.
      // The local store batches its own writes and frees handed-over chunks once written (ports/chunkHandover.ts),
      // so on that path each chunk goes to the store alone and nothing here reads it afterwards.
      const inPlace = blobs.localPath(blobKey)
      const { stored, inspect } = Option.isSome(inPlace)
        ? { stored: yield* put(blobKey, whole, mimeType), inspect: probe.inspectFile(inPlace.value, type, mimeType) }
        : yield* Effect.gen(function* () {
            const scratch = yield* probe.scratch
            // Up to 64 chunks are read ahead while a part goes out; batches of 16 keep the scratch writes down.
            const batches = whole.pipe(Stream.buffer({ capacity: 64 }), Stream.rechunk(16))
            const stored = yield* put(
              blobKey,
              Stream.mapArrayEffect(batches, (chunks) => Effect.as(scratch.write(chunks), chunks)),
              mimeType
            )
            return { stored, inspect: scratch.inspect(type, mimeType) }
          })

      // The whole body is in, so a name sent after the bytes is known now; it is checked before the file is read.
      const given = typeof filename === "string" ? filename : yield* Effect.flatMap(filename, checkFilename)
      const inspection = yield* Effect.catchTag(inspect, "MediaUnreadable", (e) =>
        Effect.fail(fail("media_unreadable", e.details, e.detail))
      )
      let previewKey: string | null = null
      if (inspection.preview !== null) {
        previewKey = `media/${id}/${secret}-preview.jpg`
        yield* put(previewKey, Stream.make(inspection.preview), "image/jpeg")
      }
      const name = shownFilename(given, ext)
      const at = yield* now
      const record: Media = {
        id,
        workspaceId: actor.workspaceId,
        type,
        mimeType,
        filename: name,
        sizeBytes: stored.sizeBytes,
        width: inspection.width,
        height: inspection.height,
        durationMs: type === "video" ? inspection.durationMs : null,
        blobKey,
        previewKey,
        createdAt: at,
        expiresAt: at + MEDIA_LIFETIME_MS
      }
      // Checked again now that the upload is in, with the workspace held: concurrent uploads cannot
      // both take the last place.
      yield* (yield* Store).transaction(
        Effect.gen(function* () {
          yield* (yield* WorkspaceRepo).lock(actor.workspaceId)
          yield* checkQuota(actor.workspaceId)
          yield* (yield* MediaRepo).insert(record)
        })
      )
      return record
    })
  ).pipe(
    Effect.onExit((exit) =>
      Exit.isSuccess(exit)
        ? Effect.void
        : Effect.forEach(written, (key) => Effect.ignore(blobs.delete(key)), { discard: true })
    )
  )
  const url = yield* Effect.catchTag(blobs.url(media.blobKey), "BlobError", storageFailure)
  return { media: mediaView(media, url) }
})
