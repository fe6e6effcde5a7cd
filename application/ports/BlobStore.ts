import { Context, type Effect, type Option, type Stream } from "effect"

/** Storage trouble; `unavailable` means the provider could not be reached (503) rather than failed (502). */
export class BlobError {
  readonly _tag = "BlobError"
  readonly reason: string
  readonly unavailable: boolean
  constructor(reason: string, unavailable: boolean) {
    this.reason = reason
    this.unavailable = unavailable
  }
}

/** No object under that key. */
export class BlobNotFound {
  readonly _tag = "BlobNotFound"
  readonly key: string
  constructor(key: string) {
    this.key = key
  }
}

export interface BlobInfo {
  readonly sizeBytes: number
  readonly contentType: string
}

export interface BlobStoreShape {
  /** Writes the bytes as they arrive; fails with the body's own error when the body fails, and then leaves nothing behind. */
  readonly put: <E>(key: string, body: Stream.Stream<Uint8Array, E>, contentType: string) => Effect.Effect<{ readonly sizeBytes: number }, BlobError | E>
  readonly get: (key: string) => Stream.Stream<Uint8Array, BlobError | BlobNotFound>
  /** Size and type of a stored object, so a reader can answer 404 before it starts streaming. */
  readonly stat: (key: string) => Effect.Effect<BlobInfo, BlobError | BlobNotFound>
  /** Removes the object; a missing key is not an error. */
  readonly delete: (key: string) => Effect.Effect<void, BlobError>
  /** Absolute URL a client can fetch the object from. */
  readonly url: (key: string) => Effect.Effect<string, BlobError>
  /** Where the object sits as a file on this machine, for stores that keep files (so tools read it in place). */
  readonly localPath: (key: string) => Option.Option<string>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreShape>()("herald/BlobStore") {}
