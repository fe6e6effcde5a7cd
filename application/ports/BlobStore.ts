import { Context, type Effect, type Stream } from "effect"

/** Storage trouble; `unavailable` means the provider could not be reached (503) rather than failed (502). */
export class BlobError {
  readonly _tag = "BlobError"
  constructor(readonly reason: string, readonly unavailable: boolean) {}
}

export interface BlobStoreShape {
  /** Writes the bytes as they arrive; fails with the body's own error when the body fails. */
  readonly put: <E>(key: string, body: Stream.Stream<Uint8Array, E>, contentType: string) => Effect.Effect<{ readonly sizeBytes: number }, BlobError | E>
  readonly get: (key: string) => Stream.Stream<Uint8Array, BlobError>
  readonly delete: (key: string) => Effect.Effect<void, BlobError>
  /** Absolute URL a client can fetch the object from. */
  readonly url: (key: string) => Effect.Effect<string, BlobError>
}

export class BlobStore extends Context.Service<BlobStore, BlobStoreShape>()("herald/BlobStore") {}
