import { Context, type Effect, type Option } from "effect"

export interface IdempotencyRecord {
  /** Workspace and caller: one caller's key never collides with another's. */
  readonly scope: string
  readonly key: string
  /** SHA-256 of the canonical JSON body. */
  readonly requestHash: string
  readonly postId: string
  readonly createdAt: number
  readonly expiresAt: number
}

export interface IdempotencyStoreShape {
  /**
   * Claims (scope, key) for this record. Returns None when the claim is new, or the live record
   * that already holds it. Atomic: of two concurrent claims exactly one is new.
   */
  readonly claim: (record: IdempotencyRecord, now: number) => Effect.Effect<Option.Option<IdempotencyRecord>>
}

export class IdempotencyStore extends Context.Service<IdempotencyStore, IdempotencyStoreShape>()(
  "herald/IdempotencyStore"
) {}
