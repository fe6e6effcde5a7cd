import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { MediaRepo, type MediaRepoShape } from "../../application/ports/MediaRepo.ts"
import type { Media, MediaType } from "../../domain/media.ts"
import { fromDate, toDate, toNumber, toNumberOrNull } from "./time.ts"

interface MediaRow {
  readonly id: string
  readonly workspace_id: string
  readonly type: string
  readonly mime_type: string
  readonly filename: string
  readonly size_bytes: bigint | number
  readonly width: number | null
  readonly height: number | null
  readonly duration_ms: bigint | number | null
  readonly blob_key: string
  readonly preview_key: string | null
  readonly created_at: Date
  readonly expires_at: Date
}

const fromRow = (row: MediaRow): Media => ({
  id: row.id,
  workspaceId: row.workspace_id,
  type: row.type as MediaType,
  mimeType: row.mime_type,
  filename: row.filename,
  sizeBytes: toNumber(row.size_bytes),
  width: row.width,
  height: row.height,
  durationMs: toNumberOrNull(row.duration_ms),
  blobKey: row.blob_key,
  previewKey: row.preview_key,
  createdAt: fromDate(row.created_at),
  expiresAt: fromDate(row.expires_at)
})

const all = (rows: ReadonlyArray<MediaRow>) => rows.map(fromRow)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    insert: (m) =>
      sql`
        INSERT INTO media (id, workspace_id, type, mime_type, filename, size_bytes, width, height, duration_ms,
                           blob_key, preview_key, created_at, expires_at)
        VALUES (${m.id}, ${m.workspaceId}, ${m.type}, ${m.mimeType}, ${m.filename}, ${m.sizeBytes}, ${m.width},
                ${m.height}, ${m.durationMs}, ${m.blobKey}, ${m.previewKey}, ${toDate(m.createdAt)},
                ${toDate(m.expiresAt)})`.pipe(Effect.asVoid, Effect.orDie),
    findById: (workspaceId, id) =>
      sql<MediaRow>`SELECT * FROM media WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    findByIds: (workspaceId, ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<MediaRow>`
            SELECT * FROM media WHERE workspace_id = ${workspaceId} AND id = ANY(${[...new Set(ids)]}::text[])`.pipe(
            Effect.map(all),
            Effect.orDie
          ),
    countByWorkspace: (workspaceId) =>
      sql<{ count: number }>`SELECT count(*)::int AS count FROM media WHERE workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => rows[0]?.count ?? 0),
        Effect.orDie
      ),
    listByWorkspace: (workspaceId, limit) =>
      sql<MediaRow>`SELECT * FROM media WHERE workspace_id = ${workspaceId} ORDER BY created_at, id LIMIT ${limit}`.pipe(
        Effect.map(all),
        Effect.orDie
      ),
    listExpired: (now, limit) =>
      sql<MediaRow>`SELECT * FROM media WHERE expires_at <= ${toDate(now)} ORDER BY expires_at, id LIMIT ${limit}`.pipe(
        Effect.map(all),
        Effect.orDie
      ),
    delete: (id) => sql`DELETE FROM media WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
  } satisfies MediaRepoShape
})

export const layer = Layer.effect(MediaRepo)(make)
