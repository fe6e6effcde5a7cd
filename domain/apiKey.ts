export interface ApiKey {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  /** First 8 characters after `<KEY_PREFIX>_`, for recognition. */
  readonly prefix: string
  /** SHA-256 of the whole key text, hex. The key itself is never stored. */
  readonly hash: string
  /** Asks-first: every post waits for a person's approval. */
  readonly requireApproval: boolean
  readonly createdAt: number
  readonly revokedAt: number | null
  /** When it last authenticated, to within an hour (a use is written at most once an hour); null: never. */
  readonly lastUsedAt: number | null
}

/** Uses of a key closer together than this are not written again. */
export const KEY_USE_RESOLUTION_MS = 60 * 60 * 1000

/** Who is calling a use case: an API key, or a signed-in person. */
export type Actor =
  | {
      readonly kind: "key"
      readonly workspaceId: string
      readonly keyId: string
      readonly name: string
      readonly requireApproval: boolean
    }
  | {
      readonly kind: "person"
      readonly workspaceId: string
      readonly personId: string
      readonly name: string
      readonly email: string
    }

export interface Creator {
  readonly kind: "key" | "person"
  readonly id: string
  readonly name: string
}

export const creatorOf = (actor: Actor): Creator =>
  actor.kind === "key"
    ? { kind: "key", id: actor.keyId, name: actor.name }
    : { kind: "person", id: actor.personId, name: actor.name }
