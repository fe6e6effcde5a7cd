import { randomUUID } from "node:crypto"
import { createReadStream } from "node:fs"
import { mkdir, open, rename, rm, rmdir, stat } from "node:fs/promises"
import { dirname, extname, join, resolve } from "node:path"
import { Clock, Effect, Exit, Layer, Option, Stream } from "effect"
import * as NodeStream from "@effect/platform-node/NodeStream"
import {
  BlobError,
  BlobNotFound,
  BlobStore,
  type BlobStoreShape,
  DEFAULT_URL_VALIDITY_MS
} from "../../application/ports/BlobStore.ts"
import { FileLinks, type FileLinksShape } from "../../application/ports/FileLinks.ts"
import { release } from "../../application/ports/chunkHandover.ts"

export interface Options {
  /** Directory the objects live in (the embedded host uses `$HERALD_DATA_DIR/media`). */
  readonly dir: string
  /** The HTTP host's base URL; objects are served by its `/files/<key>` route. */
  readonly publicUrl: string
  /** Signs the links `url` gives (the route checks them). */
  readonly links: FileLinksShape
}

// The type is not stored beside the file: keys end in the extension the upload was given.
const types: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime",
  ".m4v": "video/x-m4v",
  ".webm": "video/webm",
  ".avi": "video/x-msvideo",
  ".mpg": "video/mpeg",
  ".mpeg": "video/mpeg"
}
export const contentTypeOf = (key: string): string => types[extname(key).toLowerCase()] ?? "application/octet-stream"

// Writes of about a megabyte: few system calls, and little held while the disk works.
const BATCH_BYTES = 1024 * 1024
const BATCH_CHUNKS = 512

// Segments start with a letter or digit, so "..", "." and hidden names can never reach the disk.
const validKey = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/

const codeOf = (error: unknown): string => (error as { code?: unknown })?.code?.toString() ?? String(error)
const ioError = (what: string) => (error: unknown) => new BlobError(`${what}: ${codeOf(error)}`, false)

export const make = (options: Options) =>
  Effect.gen(function* () {
    const root = resolve(options.dir)
    const base = options.publicUrl.replace(/\/+$/, "")
    yield* Effect.tryPromise({ try: () => mkdir(root, { recursive: true }), catch: ioError("mkdir") })
    const pathOf = (key: string) =>
      validKey.test(key) && key.length <= 512
        ? Effect.succeed(join(root, key))
        : Effect.fail(new BlobError(`invalid key ${JSON.stringify(key)}`, false))
    // A key that cannot exist is simply not there, for readers.
    const readable = (key: string) => Effect.mapError(pathOf(key), () => new BlobNotFound(key))
    const missing = (key: string) => (error: unknown) =>
      codeOf(error) === "ENOENT" ? new BlobNotFound(key) : ioError("read")(error)

    const put: BlobStoreShape["put"] = (key, body) =>
      Effect.gen(function* () {
        const path = yield* pathOf(key)
        // Written beside the target and renamed at the end, so a reader never sees half a file.
        const part = `${path}.${randomUUID()}.part`
        yield* Effect.tryPromise({ try: () => mkdir(dirname(path), { recursive: true }), catch: ioError("mkdir") })
        return yield* Effect.acquireUseRelease(
          Effect.tryPromise({ try: () => open(part, "wx"), catch: ioError("open") }),
          (file) => {
            let size = 0
            let batch: Array<Uint8Array> = []
            let batchBytes = 0
            // One write in flight, so receiving the next batch overlaps with the disk.
            let inFlight: Promise<unknown> = Promise.resolve()
            const settle = Effect.tryPromise({ try: () => inFlight, catch: ioError("write") })
            const flush = () => {
              const chunks = batch
              batch = []
              batchBytes = 0
              // Written chunks that were handed over are freed now rather than by the collector.
              inFlight = file.writev(chunks).then(() => chunks.forEach(release))
            }
            return Stream.runForEachArray(body, (chunks) => {
              for (const chunk of chunks) {
                size += chunk.length
                if (chunk.length > 0) batch.push(chunk)
                batchBytes += chunk.length
              }
              return batchBytes < BATCH_BYTES && batch.length < BATCH_CHUNKS ? Effect.void : Effect.map(settle, flush)
            }).pipe(
              Effect.andThen(settle),
              Effect.andThen(
                Effect.suspend(() => (batch.length > 0 ? Effect.andThen(Effect.sync(flush), settle) : Effect.void))
              ),
              // A failed body must not leave a write racing the file's removal.
              Effect.onError(() => Effect.promise(() => inFlight.catch(() => undefined))),
              Effect.map(() => ({ sizeBytes: size }))
            )
          },
          (file) => Effect.promise(() => file.close().catch(() => undefined))
        ).pipe(
          Effect.tap(() => Effect.tryPromise({ try: () => rename(part, path), catch: ioError("rename") })),
          Effect.onExit((exit) =>
            Exit.isSuccess(exit) ? Effect.void : Effect.promise(() => rm(part, { force: true }).catch(() => undefined))
          )
        )
      })

    return {
      put,
      get: (key) =>
        Stream.unwrap(
          Effect.map(readable(key), (path) =>
            NodeStream.fromReadable<Uint8Array, BlobError | BlobNotFound>({
              evaluate: () => createReadStream(path, { highWaterMark: 256 * 1024 }),
              onError: missing(key)
            })
          )
        ),
      stat: (key) =>
        Effect.flatMap(readable(key), (path) =>
          Effect.tryPromise({ try: () => stat(path), catch: missing(key) }).pipe(
            Effect.flatMap((s) =>
              s.isFile()
                ? Effect.succeed({ sizeBytes: s.size, contentType: contentTypeOf(key) })
                : Effect.fail(new BlobNotFound(key))
            )
          )
        ),
      delete: (key) =>
        Effect.flatMap(pathOf(key), (path) =>
          Effect.tryPromise({ try: () => rm(path, { force: true }), catch: ioError("delete") }).pipe(
            // An upload's directory goes once its last object is gone; a non-empty one stays.
            Effect.andThen(
              dirname(path) === root ? Effect.void : Effect.promise(() => rmdir(dirname(path)).catch(() => undefined))
            )
          )
        ),
      url: (key, validForMs = DEFAULT_URL_VALIDITY_MS) =>
        Effect.map(
          Clock.currentTimeMillis,
          (now) => `${base}/files/${key}?${options.links.sign(key, now + validForMs)}`
        ),
      localPath: (key) => (validKey.test(key) ? Option.some(join(root, key)) : Option.none())
    } satisfies BlobStoreShape
  })

/** The store, its links signed by the FileLinks in context. */
export const layer = (options: Omit<Options, "links">) =>
  Layer.effect(BlobStore)(Effect.flatMap(FileLinks, (links) => make({ ...options, links })))
