import { Context, type Effect, type Option, type Scope } from "effect"
import type { MediaType } from "../../domain/media.ts"

/** What the bytes of a finished upload show. */
export interface Inspection {
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
  /** A JPEG about 480 px wide; null when none could be made (the upload stands without one). */
  readonly preview: Uint8Array | null
}

/** The file is truncated, damaged, or refused as a decompression bomb; `detail` says which for the caller. */
export class MediaUnreadable {
  readonly _tag = "MediaUnreadable"
  readonly detail: string
  readonly details: { readonly [key: string]: unknown }
  constructor(detail: string, details: { readonly [key: string]: unknown } = {}) {
    this.detail = detail
    this.details = details
  }
}

/** A local copy of an upload, written as the bytes stream past, for tools that need a whole file. */
export interface ProbeScratch {
  /** Appends chunks of the upload, in order. */
  readonly write: (chunks: ReadonlyArray<Uint8Array>) => Effect.Effect<void>
  /** Reads the finished copy: dimensions, duration and a preview. */
  readonly inspect: (type: MediaType, mimeType: string) => Effect.Effect<Inspection, MediaUnreadable>
}

export interface MediaProbeShape {
  /** How many leading bytes `sniff` wants to see. */
  readonly sniffBytes: number
  /** The MIME type the leading bytes show, whatever the file's name says. */
  readonly sniff: (head: Uint8Array) => Effect.Effect<Option.Option<string>>
  /** A scratch copy that is removed when the scope closes. Local I/O trouble is a defect. */
  readonly scratch: Effect.Effect<ProbeScratch, never, Scope.Scope>
  /** Reads a finished file that is already on this machine (a local blob store's), without a copy. */
  readonly inspectFile: (path: string, type: MediaType, mimeType: string) => Effect.Effect<Inspection, MediaUnreadable>
}

export class MediaProbe extends Context.Service<MediaProbe, MediaProbeShape>()("herald/MediaProbe") {}
