import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { countOnShardZeroSql } from "./usageShards.ts"
import { UsageCounter, type UsageCounterShape } from "../../application/ports/UsageCounter.ts"

const incrementSql = countOnShardZeroSql("$1", "$2", null)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    // One atomic upsert on shard 0; the month's total is the sum of its shards (usageShards.ts).
    increment: (workspaceId, month) =>
      sql.unsafe<{ count: number }>(incrementSql, [workspaceId, month]).pipe(
        Effect.flatMap((rows) => (rows[0] ? Effect.succeed(rows[0].count) : Effect.die("increment returned no row"))),
        Effect.orDie
      ),
    current: (workspaceId, month) =>
      sql<{ count: number }>`
        SELECT coalesce(sum(count), 0)::int AS count FROM usage_counters WHERE workspace_id = ${workspaceId} AND month = ${month}`.pipe(
        Effect.map((rows) => rows[0]?.count ?? 0),
        Effect.orDie
      )
  } satisfies UsageCounterShape
})

export const layer = Layer.effect(UsageCounter)(make)
