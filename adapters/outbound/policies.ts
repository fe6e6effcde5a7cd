import { CLIENT_DOCUMENT_MAX_BYTES } from "../../domain/oauth.ts"

/** What one kind of outbound call may do. */
export interface Policy {
  /**
   * The host was named by someone else (a webhook URL, a page in a post, an identity document, an
   * instance): the address guard judges every address it connects to. Off only for hosts from the
   * operator's own configuration (a network's API and token URLs).
   */
  readonly guarded: boolean
  /** One hop, from the request to the answer's last byte. */
  readonly timeoutMs: number
  /** The most of an answer's body read. */
  readonly maxBodyBytes: number
  /** Past maxBodyBytes: `fail` (an image, an API answer) or `truncate` (a page's head, a receiver's reply). */
  readonly overflow: "fail" | "truncate"
  /** Redirects followed, each hop guarded again; 0 returns the 3xx itself. */
  readonly maxRedirects: number
  /** Sending it twice is harmless whatever its method (X's append names its segment). */
  readonly idempotent?: boolean
  /** For an adapter given its own setting (the webhook sender's): in place of the process's allowLoopback. */
  readonly allowLoopback?: boolean
}

const KiB = 1024
const MiB = 1024 * KiB

/** Every kind of outbound call, its limits decided here. */
export const policies = {
  /** A network's API at a host its configuration names: JSON answers (media goes up, not down). */
  network: { guarded: false, timeoutMs: 30_000, maxBodyBytes: 16 * MiB, overflow: "fail", maxRedirects: 0 },
  /** A network's token endpoint. */
  oauth: { guarded: false, timeoutMs: 15_000, maxBodyBytes: 1 * MiB, overflow: "fail", maxRedirects: 0 },
  /** An API at a host someone else named (a Bluesky PDS from an identity document, an instance). */
  namedApi: { guarded: true, timeoutMs: 30_000, maxBodyBytes: 16 * MiB, overflow: "fail", maxRedirects: 0 },
  /** A web page in a post, read for its card: its head is enough. */
  page: { guarded: true, timeoutMs: 5_000, maxBodyBytes: 512 * KiB, overflow: "truncate", maxRedirects: 3 },
  /** A card's picture. */
  image: { guarded: true, timeoutMs: 5_000, maxBodyBytes: 5 * MiB, overflow: "fail", maxRedirects: 3 },
  /** An OAuth client's metadata document (its client_id URL): small JSON, no redirects. */
  clientDocument: {
    guarded: true,
    timeoutMs: 5_000,
    maxBodyBytes: CLIENT_DOCUMENT_MAX_BYTES,
    overflow: "fail",
    maxRedirects: 0
  },
  /** A webhook delivery: the receiver's status is what counts; redirects are not followed. */
  webhook: { guarded: true, timeoutMs: 10_000, maxBodyBytes: 64 * KiB, overflow: "truncate", maxRedirects: 0 }
} as const satisfies Record<string, Policy>
