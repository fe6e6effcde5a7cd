import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { DAY_MS } from "../../../domain/time.ts"
import { ReelLedger, type ReelLedgerShape } from "./reelLedger.ts"

/**
 * The reels ledger in Herald's database, shared by every HTTP host and scheduler on it. The table
 * belongs to the Facebook network: its declaration's migration (reelsMigration.ts) makes it. A reel
 * older than 24 hours no longer counts and goes.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    record: (page, videoId, at) =>
      sql
        .withTransaction(
          Effect.andThen(
            sql`DELETE FROM facebook_reels WHERE page_id = ${page} AND at <= ${at - DAY_MS}`,
            sql`INSERT INTO facebook_reels (page_id, video_id, at) VALUES (${page}, ${videoId}, ${at}) ON CONFLICT (page_id, video_id) DO NOTHING`
          )
        )
        .pipe(Effect.asVoid, Effect.orDie),
    within: (page, at) =>
      sql<{
        at: number | string
      }>`SELECT at FROM facebook_reels WHERE page_id = ${page} AND at > ${at - DAY_MS} AND at <= ${at} ORDER BY at`.pipe(
        Effect.map((rows) => rows.map((r) => Number(r.at))),
        Effect.orDie
      )
  } satisfies ReelLedgerShape
})

export const layer = Layer.effect(ReelLedger)(make)
