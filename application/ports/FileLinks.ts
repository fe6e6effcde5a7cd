import { Context } from "effect"

/** What a `/files/<key>` link's signature and expiry say: good, good but past its time, or not Herald's. */
export type FileLinkCheck = "valid" | "expired" | "invalid"

/**
 * Signed, expiring links to stored files, for the stores Herald serves itself (local files, memory):
 * networks that fetch media by URL (Meta) get a link nobody can guess or keep using after it ends.
 */
export interface FileLinksShape {
  /** The query string (`expires=…&signature=…`) that opens `/files/<key>` until `expiresAtMs`. */
  readonly sign: (key: string, expiresAtMs: number) => string
  /** Checks a link's `expires` and `signature` parameters for `key` at `nowMs`. */
  readonly check: (key: string, expires: string | null, signature: string | null, nowMs: number) => FileLinkCheck
}

export class FileLinks extends Context.Service<FileLinks, FileLinksShape>()("herald/FileLinks") {}
