import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { UsageCounter, type UsageCounterShape } from "../../application/ports/UsageCounter.ts"

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    // One atomic upsert: concurrent increments queue on the row lock and each sees the one before.
    increment: (workspaceId, month) =>
      sql<{ count: number }>`
        INSERT INTO usage_counters (workspace_id, month, count) VALUES (${workspaceId}, ${month}, 1)
        ON CONFLICT (workspace_id, month) DO UPDATE SET count = usage_counters.count + 1
        RETURNING count`.pipe(
        Effect.flatMap((rows) => (rows[0] ? Effect.succeed(rows[0].count) : Effect.die("increment returned no row"))),
        Effect.orDie
      ),
    current: (workspaceId, month) =>
      sql<{ count: number }>`
        SELECT count FROM usage_counters WHERE workspace_id = ${workspaceId} AND month = ${month}`.pipe(
        Effect.map((rows) => rows[0]?.count ?? 0),
        Effect.orDie
      )
  } satisfies UsageCounterShape
})

export const layer = Layer.effect(UsageCounter)(make)
