import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PostCreator, type PostCreatorShape } from "../../application/ports/PostCreator.ts"
import { toParams } from "./postRow.ts"
import { countOnShardZero, countUncapped } from "./usageShards.ts"

/**
 * A new post as ONE statement (its own implicit transaction): count the month, insert the post if
 * the count went up, insert its jobs if the post went in. One round trip holds a pooled connection
 * for the statement only; the counter's row lock is held from the UPDATE to the commit, inside the
 * server, never across a round trip to Node (and an uncapped plan spreads its count over shards).
 * At the cap the conditional upsert updates nothing, so nothing else is written.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    create: ({ jobs, post, usage }) => {
      const p = toParams(post)
      const count = usage.limit === null
        ? countUncapped(sql, { workspaceId: p.workspaceId, month: usage.month })
        : countOnShardZero(sql, { workspaceId: p.workspaceId, month: usage.month, limit: usage.limit })
      return sql<{ count: number }>`
        WITH counted AS (${count}
        ), created AS (
          INSERT INTO posts (id, workspace_id, status, content, media_ids, first_comment, thread, poll, cover,
            tiktok_ai_generated, scheduled_for, require_approval, created_by, created_at, updated_at, published_at,
            deleted_at, deleted_reason, targets)
          SELECT ${p.id}, ${p.workspaceId}, ${p.status}, ${p.content}, ${p.mediaIds}::text[], ${p.firstComment},
            ${p.thread}::jsonb, ${p.poll}::jsonb, ${p.cover}::jsonb, ${p.tiktokAiGenerated}, ${p.scheduledFor}::timestamptz,
            ${p.requireApproval}, ${p.createdBy}::jsonb, ${p.createdAt}::timestamptz, ${p.updatedAt}::timestamptz,
            ${p.publishedAt}::timestamptz, ${p.deletedAt}::timestamptz, ${p.deletedReason}, ${p.targets}::jsonb
          WHERE EXISTS (SELECT 1 FROM counted)
          RETURNING id
        ), queued AS (
          INSERT INTO jobs (id, kind, workspace_id, post_id, account_id, run_at, available_at, attempts)
          SELECT j.id, j.kind, j.workspace_id, created.id, j.account_id, j.run_at, j.run_at, j.attempts
          FROM created, unnest(
            ${jobs.map((j) => j.id)}::text[], ${jobs.map((j) => j.kind)}::text[], ${jobs.map((j) => j.workspaceId)}::text[],
            ${jobs.map((j) => j.accountId)}::text[], ${jobs.map((j) => new Date(j.runAt).toISOString())}::timestamptz[],
            ${jobs.map((j) => j.attempts)}::int[]
          ) AS j(id, kind, workspace_id, account_id, run_at, attempts)
          RETURNING 1
        )
        SELECT ${usage.limit === null ? sql`NULL::int` : sql`count`} AS count FROM counted`.pipe(
        Effect.map((rows) => (rows[0] ? { _tag: "Created" as const, used: rows[0].count } : { _tag: "OverCap" as const })),
        Effect.orDie
      )
    }
  } satisfies PostCreatorShape
})

export const layer = Layer.effect(PostCreator)(make)
