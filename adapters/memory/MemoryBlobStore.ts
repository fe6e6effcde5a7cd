import { Clock, Context, Effect, Layer, Option, Stream } from "effect"
import {
  BlobNotFound,
  BlobStore,
  type BlobStoreShape,
  DEFAULT_URL_VALIDITY_MS
} from "../../application/ports/BlobStore.ts"
import { FileLinks, type FileLinksShape } from "../../application/ports/FileLinks.ts"

interface Stored {
  readonly chunks: ReadonlyArray<Uint8Array>
  readonly sizeBytes: number
  readonly contentType: string
}

/** What the memory store holds, for tests to assert that nothing was left behind. */
export class StoredBlobs extends Context.Service<StoredBlobs, { readonly keys: () => ReadonlyArray<string> }>()(
  "herald/memory/StoredBlobs"
) {}

/** Blobs in a Map; `url` gives a signed link to the HTTP host's own file route, which serves them through `get`. */
export const make = (publicUrl: string, links: FileLinksShape) =>
  Effect.sync(() => {
    const objects = new Map<string, Stored>()
    const base = publicUrl.replace(/\/+$/, "")
    const store = {
      put: (key, body, contentType) =>
        Effect.map(Stream.runCollect(body), (chunks) => {
          // Copies, since a caller may reuse its buffers after handing them over.
          const copies = chunks.map((c) => Uint8Array.from(c))
          const sizeBytes = copies.reduce((n, c) => n + c.length, 0)
          objects.set(key, { chunks: copies, sizeBytes, contentType })
          return { sizeBytes }
        }),
      get: (key) =>
        Stream.suspend(() => {
          const found = objects.get(key)
          return found ? Stream.fromArray(found.chunks) : Stream.fail(new BlobNotFound(key))
        }),
      stat: (key) =>
        Effect.suspend(() => {
          const found = objects.get(key)
          return found
            ? Effect.succeed({ sizeBytes: found.sizeBytes, contentType: found.contentType })
            : Effect.fail(new BlobNotFound(key))
        }),
      delete: (key) => Effect.sync(() => void objects.delete(key)),
      url: (key, validForMs = DEFAULT_URL_VALIDITY_MS) =>
        Effect.map(
          Clock.currentTimeMillis,
          (now) =>
            `${base}/files/${key.split("/").map(encodeURIComponent).join("/")}?${links.sign(key, now + validForMs)}`
        ),
      localPath: () => Option.none()
    } satisfies BlobStoreShape
    return { store, keys: () => [...objects.keys()] }
  })

/** The store, its links signed by the FileLinks in context. */
export const layer = (publicUrl: string) =>
  Layer.effectContext(
    Effect.map(
      Effect.flatMap(FileLinks, (links) => make(publicUrl, links)),
      ({ store, keys }) => Context.make(BlobStore, store).pipe(Context.add(StoredBlobs, { keys }))
    )
  )
