/**
 * Upload chunks handed over to storage: their memory may be freed as soon as they are written.
 *
 * Node gives every piece of a request body its own new buffer, and V8 frees a buffer only when a
 * collection finds it dead: for a 100 MB upload in this server, two or three full collections of the
 * heap that cost more CPU than the upload itself. A host whose chunks nobody else holds (bytes off the socket)
 * marks them with `handOver`; the store that writes a chunk to its end (the local-files BlobStore)
 * calls `release` once the write is done, which frees the memory at once. Any other store ignores
 * the mark and the collector frees the chunk as usual. So a pipeline that gives one chunk to two
 * writers must not hand it over; the upload use case never does that with a store that releases.
 */
const handedOver = new WeakSet<Uint8Array>()

/** Marks a chunk that nothing else holds; only a view over its whole buffer can be marked. */
export const handOver = (chunk: Uint8Array): Uint8Array => {
  if (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer)
    handedOver.add(chunk)
  return chunk
}

// ES2024's ArrayBuffer transfer (Node 21+), not in this project's ES2023 typings.
type Transferable = ArrayBuffer & {
  readonly detached?: boolean
  readonly resizable?: boolean
  readonly transfer?: (length: number) => ArrayBuffer
}

/** After a chunk has been written: frees a handed-over chunk's memory (it reads as empty afterwards). */
export const release = (chunk: Uint8Array): void => {
  if (!handedOver.delete(chunk)) return
  const buffer = chunk.buffer as Transferable
  // Transferring to a new empty buffer detaches the old one, which drops its memory now.
  if (buffer.detached === false && buffer.resizable === false) buffer.transfer?.(0)
}
