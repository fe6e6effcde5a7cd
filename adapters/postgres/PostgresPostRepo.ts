import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { PostRepo, type PostRepoShape } from "../../application/ports/PostRepo.ts"
import { fromRow, type PostRow, toJsonRow, toParams } from "./postRow.ts"

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    insert: (post) => {
      const p = toParams(post)
      return sql`
        INSERT INTO posts (id, workspace_id, status, content, media_ids, first_comment, thread, poll, cover,
          tiktok_ai_generated, network_options, overrides, scheduled_for, require_approval, created_by, created_at, updated_at, published_at,
          deleted_at, deleted_reason, targets)
        VALUES (${p.id}, ${p.workspaceId}, ${p.status}, ${p.content}, ${p.mediaIds}::text[], ${p.firstComment},
          ${p.thread}::jsonb, ${p.poll}::jsonb, ${p.cover}::jsonb, ${p.tiktokAiGenerated}, ${p.networkOptions}::jsonb, ${p.overrides}::jsonb,
          ${p.scheduledFor}, ${p.requireApproval}, ${p.createdBy}::jsonb, ${p.createdAt}, ${p.updatedAt}, ${p.publishedAt},
          ${p.deletedAt}, ${p.deletedReason}, ${p.targets}::jsonb)`.pipe(Effect.asVoid, Effect.orDie)
    },
    findById: (workspaceId, id) =>
      sql<PostRow>`SELECT * FROM posts WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    // Keyset pagination on the id (ULIDs sort by creation): the cursor is the last id seen.
    list: (workspaceId, query) =>
      sql<PostRow>`
        SELECT * FROM posts
        WHERE ${sql.and([
          sql`workspace_id = ${workspaceId}`,
          sql`deleted_at IS NULL`,
          ...(query.status === undefined ? [] : [sql`status = ${query.status}`]),
          ...(query.after === undefined ? [] : [sql`id < ${query.after}`])
        ])}
        ORDER BY id DESC
        LIMIT ${query.limit}`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    // The workspace never changes, so it stays out of the SET list and guards the row instead.
    update: (post) => {
      const p = toParams(post)
      return sql`
        UPDATE posts SET status = ${p.status}, content = ${p.content}, media_ids = ${p.mediaIds}::text[],
          first_comment = ${p.firstComment}, thread = ${p.thread}::jsonb, poll = ${p.poll}::jsonb,
          cover = ${p.cover}::jsonb, tiktok_ai_generated = ${p.tiktokAiGenerated}, network_options = ${p.networkOptions}::jsonb,
          overrides = ${p.overrides}::jsonb, scheduled_for = ${p.scheduledFor},
          require_approval = ${p.requireApproval}, created_by = ${p.createdBy}::jsonb, created_at = ${p.createdAt},
          updated_at = ${p.updatedAt}, published_at = ${p.publishedAt}, deleted_at = ${p.deletedAt},
          deleted_reason = ${p.deletedReason}, targets = ${p.targets}::jsonb
        WHERE id = ${p.id} AND workspace_id = ${p.workspaceId}`.pipe(Effect.asVoid, Effect.orDie)
    },
    findMany: (keys) => {
      if (keys.length === 0) return Effect.succeed([])
      const workspaceOf = new Map(keys.map((k) => [k.id, k.workspaceId]))
      return sql<PostRow>`SELECT * FROM posts WHERE id = ANY(${[...workspaceOf.keys()]}::text[])`.pipe(
        Effect.map((rows) => rows.filter((r) => workspaceOf.get(r.id) === r.workspace_id).map(fromRow)),
        Effect.orDie
      )
    },
    // One statement for the batch: the rows as JSON, typed by the table itself.
    updateMany: (posts) =>
      posts.length === 0
        ? Effect.void
        : sql`
            UPDATE posts SET status = v.status, content = v.content, media_ids = v.media_ids, first_comment = v.first_comment,
              thread = v.thread, poll = v.poll, cover = v.cover, tiktok_ai_generated = v.tiktok_ai_generated, network_options = v.network_options, overrides = v.overrides,
              scheduled_for = v.scheduled_for, require_approval = v.require_approval, created_by = v.created_by,
              created_at = v.created_at, updated_at = v.updated_at, published_at = v.published_at, deleted_at = v.deleted_at,
              deleted_reason = v.deleted_reason, targets = v.targets
            FROM jsonb_populate_recordset(NULL::posts, ${JSON.stringify(posts.map(toJsonRow))}::jsonb) AS v
            WHERE posts.id = v.id AND posts.workspace_id = v.workspace_id`.pipe(Effect.asVoid, Effect.orDie)
  } satisfies PostRepoShape
})

export const layer = Layer.effect(PostRepo)(make)
