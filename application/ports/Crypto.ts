import { Context, type Effect } from "effect"

export interface CryptoShape {
  /** A new sortable, random id with the given prefix (`post_01J...`). */
  readonly id: (prefix: string) => Effect.Effect<string>
  /** A new secret: 32 random bytes in base62. */
  readonly token: () => Effect.Effect<string>
  /** SHA-256 of a text, hex. */
  readonly sha256: (text: string) => Effect.Effect<string>
}

export class Crypto extends Context.Service<Crypto, CryptoShape>()("herald/Crypto") {}
