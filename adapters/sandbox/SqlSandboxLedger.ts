import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SandboxLedger, type SandboxLedgerShape, type SandboxRecord } from "./SandboxPublisher.ts"

interface Row {
  readonly external_id: string
  readonly account_id: string
  readonly post_id: string
  readonly content: string
  readonly reply_to: SandboxRecord["replyTo"]
  readonly media_ids: ReadonlyArray<string>
  readonly extra: { poll: SandboxRecord["poll"]; cover: SandboxRecord["cover"]; tiktokAiGenerated: boolean }
  readonly at: number | string
}

const fromRow = (row: Row): SandboxRecord => ({
  externalId: row.external_id, accountId: row.account_id, postId: row.post_id, content: row.content, replyTo: row.reply_to,
  mediaIds: row.media_ids, poll: row.extra.poll, cover: row.extra.cover, tiktokAiGenerated: row.extra.tiktokAiGenerated, at: Number(row.at)
})

/**
 * The sandbox network's posts in Herald's own database, so that several processes (HTTP hosts,
 * schedulers) share one sandbox. The table belongs to the sandbox "network", not to Herald's
 * schema, so it is created here on first use (under a lock: schedulers start at once).
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function* () {
    yield* sql`SELECT pg_advisory_xact_lock(hashtextextended('herald_sandbox_ledger', 0))`
    yield* sql`CREATE TABLE IF NOT EXISTS sandbox_ledger (
      external_id text PRIMARY KEY,
      account_id text NOT NULL,
      post_id text NOT NULL,
      content text NOT NULL,
      reply_to jsonb,
      media_ids jsonb NOT NULL,
      extra jsonb NOT NULL,
      at bigint NOT NULL
    )`
  })).pipe(Effect.orDie)
  return {
    append: (r) =>
      sql`INSERT INTO sandbox_ledger (external_id, account_id, post_id, content, reply_to, media_ids, extra, at)
          VALUES (${r.externalId}, ${r.accountId}, ${r.postId}, ${r.content}, ${r.replyTo === null ? null : JSON.stringify(r.replyTo)}::jsonb,
                  ${JSON.stringify(r.mediaIds)}::jsonb, ${JSON.stringify({ poll: r.poll, cover: r.cover, tiktokAiGenerated: r.tiktokAiGenerated })}::jsonb, ${r.at})
          ON CONFLICT (external_id) DO NOTHING RETURNING external_id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    find: (externalId) =>
      sql<Row>`SELECT * FROM sandbox_ledger WHERE external_id = ${externalId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    all: () => sql<Row>`SELECT * FROM sandbox_ledger ORDER BY at, external_id`.pipe(Effect.map((rows) => rows.map(fromRow)), Effect.orDie)
  } satisfies SandboxLedgerShape
})

export const layer = Layer.effect(SandboxLedger)(make)
