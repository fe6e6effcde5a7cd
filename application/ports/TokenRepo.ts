import { Context, type Effect, type Option } from "effect"

/** What a single-use or session token is for. */
/** approval: an e-mailed Approve/Reject link; approval_digest: a digest due at its expiry. */
/** connect_browser: a connect link continued in one browser (hash of its state and the browser's cookie). */
export type TokenKind = "claim" | "signin" | "session" | "connect" | "connect_browser" | "approval" | "approval_digest"

export interface StoredToken {
  /** SHA-256 of the token text; the text itself is never stored. */
  readonly hash: string
  readonly kind: TokenKind
  readonly workspaceId: string
  readonly email: string
  /** Free-form data the token carries (platform of a connect, CSRF secret of a session). */
  readonly data: string | null
  readonly createdAt: number
  readonly expiresAt: number
}

export interface TokenRepoShape {
  readonly insert: (token: StoredToken) => Effect.Effect<void>
  /** Takes a single-use token: returns it and deletes it in one step, if unexpired. */
  readonly consume: (hash: string, kind: TokenKind, now: number) => Effect.Effect<Option.Option<StoredToken>>
  /** Reads a token without using it up (sessions), if unexpired. */
  readonly find: (hash: string, kind: TokenKind, now: number) => Effect.Effect<Option.Option<StoredToken>>
  readonly delete: (hash: string) => Effect.Effect<void>
  /** The unexpired tokens of one kind for one person of a workspace (their sessions), oldest first. */
  /** Takes (deletes and returns) up to `limit` tokens of `kind` whose time has come (expiry at or before `now`): due markers. */
  readonly takeDue: (kind: TokenKind, now: number, limit: number) => Effect.Effect<ReadonlyArray<StoredToken>>
  readonly listFor: (
    workspaceId: string,
    email: string,
    kind: TokenKind,
    now: number
  ) => Effect.Effect<ReadonlyArray<StoredToken>>
  /** Deletes every token of one kind for a workspace (an older claim link when a new one is sent). */
  readonly deleteKind: (workspaceId: string, kind: TokenKind) => Effect.Effect<void>
}

export class TokenRepo extends Context.Service<TokenRepo, TokenRepoShape>()("herald/TokenRepo") {}
