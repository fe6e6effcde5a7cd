import { Cause, Deferred, Effect, Exit, Layer, Option } from "effect"
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
  externalId: row.external_id,
  accountId: row.account_id,
  postId: row.post_id,
  content: row.content,
  replyTo: row.reply_to,
  mediaIds: row.media_ids,
  poll: row.extra.poll,
  cover: row.extra.cover,
  tiktokAiGenerated: row.extra.tiktokAiGenerated,
  at: Number(row.at)
})

/**
 * The sandbox network's posts in Herald's own database, so that several processes (HTTP hosts,
 * schedulers) share one sandbox. The table belongs to the sandbox network: its declaration's
 * migration (ledgerMigration.ts) makes it.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  type Waiting = { readonly record: SandboxRecord; readonly stored: Deferred.Deferred<boolean> }
  const insertAll = (group: ReadonlyArray<Waiting>) => {
    const records = group.map((b) => b.record)
    // One row per id with the number of calls that named it; an id already there counts them and keeps its record.
    return sql<{ external_id: string; inserted: boolean }>`
      INSERT INTO sandbox_ledger (external_id, account_id, post_id, content, reply_to, media_ids, extra, at, publishes)
      SELECT DISTINCT ON (v.external_id) v.external_id, v.account_id, v.post_id, v.content, v.reply_to, v.media_ids,
        v.extra, v.at, count(*) OVER (PARTITION BY v.external_id)
      FROM jsonb_to_recordset(${JSON.stringify(
        records.map((r) => ({
          external_id: r.externalId,
          account_id: r.accountId,
          post_id: r.postId,
          content: r.content,
          reply_to: r.replyTo,
          media_ids: r.mediaIds,
          extra: { poll: r.poll, cover: r.cover, tiktokAiGenerated: r.tiktokAiGenerated },
          at: r.at
        }))
      )}::jsonb) AS v(external_id text, account_id text, post_id text, content text, reply_to jsonb, media_ids jsonb, extra jsonb, at bigint)
      ORDER BY v.external_id
      ON CONFLICT (external_id) DO UPDATE SET publishes = sandbox_ledger.publishes + EXCLUDED.publishes
      RETURNING external_id, (xmax = 0) AS inserted`.pipe(
      Effect.exit,
      Effect.flatMap((exit) =>
        Effect.sync(() => {
          const inserted =
            exit._tag === "Success" ? new Set(exit.value.filter((r) => r.inserted).map((r) => r.external_id)) : null
          for (const w of group) {
            if (inserted === null)
              Deferred.doneUnsafe(w.stored, Exit.die(exit._tag === "Failure" ? Cause.squash(exit.cause) : undefined))
            // One answer per id: a second record with the same id in the group was not stored.
            else Deferred.doneUnsafe(w.stored, Exit.succeed(inserted.delete(w.record.externalId)))
          }
        })
      )
    )
  }
  // Appends arriving together (a scheduler publishing a batch) go out as one INSERT: the first of a
  // group lets the others of the same moment join, then writes them all; each waits on its own answer.
  let gathering: Array<Waiting> | null = null
  return {
    append: (record) =>
      Effect.suspend(() => {
        const stored = Deferred.makeUnsafe<boolean>()
        if (gathering !== null) {
          gathering.push({ record, stored })
          return Deferred.await(stored)
        }
        const group: Array<Waiting> = [{ record, stored }]
        gathering = group
        return Effect.yieldNow.pipe(
          Effect.andThen(
            Effect.suspend(() => {
              gathering = null
              return insertAll(group)
            })
          ),
          Effect.uninterruptible,
          Effect.andThen(Deferred.await(stored))
        )
      }),
    publishes: (externalId) =>
      sql<{ publishes: number }>`SELECT publishes FROM sandbox_ledger WHERE external_id = ${externalId}`.pipe(
        Effect.map((rows) => rows[0]?.publishes ?? 0),
        Effect.orDie
      ),
    find: (externalId) =>
      sql<Row>`SELECT * FROM sandbox_ledger WHERE external_id = ${externalId} AND removed_at IS NULL`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    // The record stays, marked: its first remove sets removed_at, every remove counts (a repeat removes nothing).
    remove: (externalId) =>
      sql<{ removed: boolean }>`
        WITH before AS (SELECT removed_at FROM sandbox_ledger WHERE external_id = ${externalId} FOR UPDATE)
        UPDATE sandbox_ledger SET removes = removes + 1, removed_at = COALESCE(removed_at, ${Date.now()})
        WHERE external_id = ${externalId}
        RETURNING (SELECT removed_at IS NULL FROM before) AS removed`.pipe(
        Effect.map((rows) => rows[0]?.removed === true),
        Effect.orDie
      ),
    all: () =>
      sql<Row>`SELECT * FROM sandbox_ledger WHERE removed_at IS NULL ORDER BY at, external_id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      )
  } satisfies SandboxLedgerShape
})

export const layer = Layer.effect(SandboxLedger)(make)
