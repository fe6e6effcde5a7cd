import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type StoredToken, type TokenKind, TokenRepo, type TokenRepoShape } from "../../application/ports/TokenRepo.ts"
import { fromDate, toDate } from "./time.ts"

interface TokenRow {
  readonly hash: string
  readonly kind: string
  readonly workspace_id: string
  readonly email: string
  readonly data: string | null
  readonly created_at: Date
  readonly expires_at: Date
}

const fromRow = (row: TokenRow): StoredToken => ({
  hash: row.hash,
  kind: row.kind as TokenKind,
  workspaceId: row.workspace_id,
  email: row.email,
  data: row.data,
  createdAt: fromDate(row.created_at),
  expiresAt: fromDate(row.expires_at)
})

const first = (rows: ReadonlyArray<TokenRow>) => Option.map(Option.fromNullishOr(rows[0]), fromRow)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    insert: (token) =>
      sql`
        INSERT INTO tokens (hash, kind, workspace_id, email, data, created_at, expires_at)
        VALUES (${token.hash}, ${token.kind}, ${token.workspaceId}, ${token.email}, ${token.data},
                ${toDate(token.createdAt)}, ${toDate(token.expiresAt)})`.pipe(Effect.asVoid, Effect.orDie),
    // DELETE ... RETURNING is the single step: of two concurrent consumers only one gets the row.
    consume: (hash, kind, now) =>
      sql<TokenRow>`
        DELETE FROM tokens WHERE hash = ${hash} AND kind = ${kind} AND expires_at > ${toDate(now)}
        RETURNING *`.pipe(Effect.map(first), Effect.orDie),
    find: (hash, kind, now) =>
      sql<TokenRow>`
        SELECT * FROM tokens WHERE hash = ${hash} AND kind = ${kind} AND expires_at > ${toDate(now)}`.pipe(
        Effect.map(first),
        Effect.orDie
      ),
    delete: (hash) => sql`DELETE FROM tokens WHERE hash = ${hash}`.pipe(Effect.asVoid, Effect.orDie),
    // One statement: of schedulers sweeping at once, each marker goes to one of them.
    takeDue: (kind, now, limit) =>
      sql<TokenRow>`
        DELETE FROM tokens WHERE hash IN (
          SELECT hash FROM tokens WHERE kind = ${kind} AND expires_at <= ${toDate(now)} ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING *`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    // tokens_workspace_kind_idx finds the workspace's sessions; a person has a handful.
    listFor: (workspaceId, email, kind, now) =>
      sql<TokenRow>`
        SELECT * FROM tokens WHERE workspace_id = ${workspaceId} AND kind = ${kind} AND email = ${email} AND expires_at > ${toDate(now)}
        ORDER BY created_at, hash`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    deleteKind: (workspaceId, kind) =>
      sql`DELETE FROM tokens WHERE workspace_id = ${workspaceId} AND kind = ${kind}`.pipe(Effect.asVoid, Effect.orDie)
  } satisfies TokenRepoShape
})

export const layer = Layer.effect(TokenRepo)(make)
