import { Context, type Effect, type Option, type Stream } from "effect"
import { MEDIA_LIFETIME_MS } from "../../domain/media.ts"

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
  readonly put: <E>(
    key: string,
    body: Stream.Stream<Uint8Array, E>,
    contentType: string
  ) => Effect.Effect<{ readonly sizeBytes: number }, BlobError | E>
  readonly get: (key: string) => Stream.Stream<Uint8Array, BlobError | BlobNotFound>
  /** Size and type of a stored object, so a reader can answer 404 before it starts streaming. */
  readonly stat: (key: string) => Effect.Effect<BlobInfo, BlobError | BlobNotFound>
  /** Removes the object; a missing key is not an error. */
  readonly delete: (key: string) => Effect.Effect<void, BlobError>
  /**
   * Absolute URL a client can fetch the object from, valid for at least `validForMs` (default: an
   * upload's 7 days): a presigned S3 GET, or Herald's own signed `/files/…` link. A public bucket's
   * URL does not expire.
   */
  readonly url: (key: string, validForMs?: number) => Effect.Effect<string, BlobError>
  /** Where the object sits as a file on this machine, for stores that keep files (so tools read it in place). */
  readonly localPath: (key: string) => Option.Option<string>
}

/** How long a URL from `url` stays valid when the caller names no time: an upload's lifetime. */
export const DEFAULT_URL_VALIDITY_MS = MEDIA_LIFETIME_MS

export class BlobStore extends Context.Service<BlobStore, BlobStoreShape>()("herald/BlobStore") {}
