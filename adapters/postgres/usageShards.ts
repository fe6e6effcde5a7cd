import type { SqlClient, Statement } from "effect/sql"

/**
 * A workspace's month is counted in up to USAGE_SHARDS rows of `usage_counters`, summed on read.
 * An uncapped plan adds to the shard its post id picks, so concurrent creates lock different rows
 * and their commits group; a capped plan always adds to shard 0, whose row lock orders the creates
 * and whose conditional upsert enforces the cap on the month's total.
 */
export const USAGE_SHARDS = 16

/** The shard of an uncapped plan's post: a hash of its id (ULIDs end in random characters). */
export const shardOf = (postId: string): number => {
  let hash = 0
  for (let i = 0; i < postId.length; i++) hash = (hash * 31 + postId.charCodeAt(i)) | 0
  return Math.abs(hash) % USAGE_SHARDS
}

/**
 * The statement that counts one post and returns the month's new total, or no row when a capped
 * month is full. Usable alone or as a CTE. Without a limit it adds to `shard`; with one, to shard 0,
 * and the total is shard 0 (locked, re-read after any concurrent create commits) plus the other
 * shards, which only uncapped counting writes.
 */
export const countOne = (
  sql: SqlClient.SqlClient,
  input: { readonly workspaceId: string; readonly month: string; readonly limit: number | null; readonly shard: number }
): Statement.Statement<{ count: number }> => {
  const { limit, month, shard, workspaceId } = input
  const others = sql`(SELECT coalesce(sum(o.count), 0) FROM usage_counters o
    WHERE o.workspace_id = ${workspaceId} AND o.month = ${month} AND o.shard <> 0)::int`
  return limit === null
    ? sql<{ count: number }>`
      INSERT INTO usage_counters (workspace_id, month, shard, count) VALUES (${workspaceId}, ${month}, ${shard}, 1)
      ON CONFLICT (workspace_id, month, shard) DO UPDATE SET count = usage_counters.count + 1
      RETURNING (SELECT coalesce(sum(t.count), 0) FROM usage_counters t
        WHERE t.workspace_id = ${workspaceId} AND t.month = ${month} AND t.shard <> ${shard})::int + count AS count`
    : sql<{ count: number }>`
      INSERT INTO usage_counters (workspace_id, month, shard, count)
      SELECT ${workspaceId}, ${month}, 0, 1 WHERE ${others} < ${limit}
      ON CONFLICT (workspace_id, month, shard) DO UPDATE SET count = usage_counters.count + 1
        WHERE usage_counters.count + ${others} < ${limit}
      RETURNING ${others} + count AS count`
}
