import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeyRepo, type ApiKeyRepoShape } from "../../application/ports/ApiKeyRepo.ts"
import { type ApiKey, KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

interface ApiKeyRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly prefix: string
  readonly hash: string
  readonly require_approval: boolean
  readonly created_at: Date
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
}

const fromRow = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  prefix: row.prefix,
  hash: row.hash,
  requireApproval: row.require_approval,
  createdAt: fromDate(row.created_at),
  revokedAt: fromDateOrNull(row.revoked_at),
  lastUsedAt: fromDateOrNull(row.last_used_at)
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    insert: (key) =>
      sql`
        INSERT INTO api_keys (id, workspace_id, name, prefix, hash, require_approval, created_at, revoked_at, last_used_at)
        VALUES (${key.id}, ${key.workspaceId}, ${key.name}, ${key.prefix}, ${key.hash}, ${key.requireApproval},
                ${toDate(key.createdAt)}, ${toDateOrNull(key.revokedAt)}, ${toDateOrNull(key.lastUsedAt)})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    findByHash: (hash) =>
      sql<ApiKeyRow>`SELECT * FROM api_keys WHERE hash = ${hash}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    listByWorkspace: (workspaceId) =>
      sql<ApiKeyRow>`SELECT * FROM api_keys WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    // The condition keeps it to one write an hour however often the key is used.
    recordUse: (id, at) =>
      sql`
        UPDATE api_keys SET last_used_at = ${toDate(at)}
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at <= ${toDate(at - KEY_USE_RESOLUTION_MS)})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    // Only a live key of that workspace is revoked; the answer says whether one was.
    revoke: (workspaceId, id, now) =>
      sql<{ id: string }>`
        UPDATE api_keys SET revoked_at = ${toDate(now)}
        WHERE id = ${id} AND workspace_id = ${workspaceId} AND revoked_at IS NULL
        RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  } satisfies ApiKeyRepoShape
})

export const layer = Layer.effect(ApiKeyRepo)(make)
