import { Context, type Effect, Schema } from "effect"

/** A client's metadata document could not be read: refused address, no answer, not JSON, too large. */
export class ClientDocumentUnreadable extends Schema.TaggedError<ClientDocumentUnreadable>()(
  "ClientDocumentUnreadable",
  { reason: Schema.String }
) {}

/** Reads OAuth Client ID Metadata Documents from the URLs clients name, through the outbound address guard. */
export interface ClientDocumentsShape {
  /** The JSON at `url` (https, public hosts; loopback only where the host allows it), size-capped. */
  readonly fetch: (url: string) => Effect.Effect<unknown, ClientDocumentUnreadable>
  /** Whether http on loopback is allowed (development and tests): the URL rule depends on it. */
  readonly allowsLoopback: boolean
}

export class ClientDocuments extends Context.Service<ClientDocuments, ClientDocumentsShape>()(
  "herald/ClientDocuments"
) {}
