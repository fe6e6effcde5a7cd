import { Effect, Stream } from "effect"
import { type BlobError, BlobNotFound, type BlobStoreShape } from "../../../application/ports/BlobStore.ts"
import { PublishError } from "../../../application/ports/Publishers.ts"

/** A storage failure while reading an upload for a network: gone for good, or storage down (try again). */
export const blobFailure = (e: BlobError | BlobNotFound): PublishError =>
  e instanceof BlobNotFound
    ? PublishError.refused({ code: "media_not_found", message: "An upload of this post is no longer in storage." })
    : PublishError.unavailable({
        code: e.unavailable ? "upstream_storage_unavailable" : "upstream_storage_failed",
        message: `Reading an upload failed: ${e.reason}`
      })

/** An upload's bytes in one piece (images: a few MB at most). */
export const readAll = (blobs: BlobStoreShape, key: string): Effect.Effect<Uint8Array<ArrayBuffer>, PublishError> =>
  blobs.get(key).pipe(
    Stream.runCollect,
    Effect.map((chunks) => {
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.length
      }
      return bytes
    }),
    Effect.mapError(blobFailure)
  )

/**
 * Streams an upload to `send` in segments of exactly `size` bytes (the last one shorter), in order,
 * holding one segment in memory at a time: how chunked uploads (X, TikTok, YouTube) take a video.
 * `from` skips the bytes a resumed upload already sent (the stores read from the start).
 */
export const inSegments = <E>(
  blobs: BlobStoreShape,
  key: string,
  size: number,
  send: (segment: Uint8Array<ArrayBuffer>, index: number) => Effect.Effect<void, E>,
  from = 0
): Effect.Effect<number, E | PublishError> =>
  Effect.suspend(() => {
    let segment = new Uint8Array(size)
    let filled = 0
    let index = 0
    let skip = from
    const flush = () => {
      const full = filled === size ? segment : segment.slice(0, filled)
      const at = index++
      segment = new Uint8Array(size)
      filled = 0
      return send(full, at)
    }
    const take = (chunk: Uint8Array) =>
      Effect.gen(function* () {
        let offset = Math.min(skip, chunk.length)
        skip -= offset
        while (offset < chunk.length) {
          const n = Math.min(size - filled, chunk.length - offset)
          segment.set(chunk.subarray(offset, offset + n), filled)
          filled += n
          offset += n
          if (filled === size) yield* flush()
        }
      })
    return blobs.get(key).pipe(
      Stream.mapError(blobFailure),
      Stream.runForEach(take),
      Effect.andThen(Effect.suspend(() => (filled > 0 ? flush() : Effect.void))),
      Effect.map(() => index)
    )
  })

/**
 * Streams an upload to `send` in parts of the given sizes, in order, holding one part in memory at a
 * time: how uploads whose parts the network sizes itself (LinkedIn's upload instructions) go up.
 * Fails when the parts do not add up to the upload's bytes (after the `from` bytes a resumed upload skips).
 */
export const inParts = <E>(
  blobs: BlobStoreShape,
  key: string,
  sizes: ReadonlyArray<number>,
  send: (part: Uint8Array<ArrayBuffer>, index: number) => Effect.Effect<void, E>,
  from = 0
): Effect.Effect<void, E | PublishError> =>
  Effect.suspend(() => {
    let index = 0
    let part = new Uint8Array(sizes[0] ?? 0)
    let filled = 0
    let skip = from
    const mismatch = () =>
      PublishError.refused({
        code: "upstream_rejected",
        message: `The network's upload parts (${sizes.reduce((a, b) => a + b, 0)} bytes) do not match the upload's size.`
      })
    const take = (chunk: Uint8Array) =>
      Effect.gen(function* () {
        let offset = Math.min(skip, chunk.length)
        skip -= offset
        while (offset < chunk.length) {
          if (index >= sizes.length) return yield* Effect.fail(mismatch())
          const n = Math.min(part.length - filled, chunk.length - offset)
          part.set(chunk.subarray(offset, offset + n), filled)
          filled += n
          offset += n
          if (filled === part.length) {
            const full = part
            const at = index++
            part = new Uint8Array(sizes[index] ?? 0)
            filled = 0
            yield* send(full, at)
          }
        }
      })
    return blobs
      .get(key)
      .pipe(
        Stream.mapError(blobFailure),
        Stream.runForEach(take),
        Effect.andThen(
          Effect.suspend(() => (index === sizes.length && filled === 0 ? Effect.void : Effect.fail(mismatch())))
        )
      )
  })

/** How long a media URL given to a network that fetches media itself (Meta) stays valid: time to fetch, not to keep. */
export const FETCH_URL_VALIDITY_MS = 60 * 60_000

/** A URL the network can fetch the upload from, valid `validForMs` (a presigned S3 GET, or Herald's signed /files/ link). */
export const fetchableUrl = (
  blobs: BlobStoreShape,
  key: string,
  validForMs = FETCH_URL_VALIDITY_MS
): Effect.Effect<string, PublishError> => blobs.url(key, validForMs).pipe(Effect.mapError(blobFailure))
