import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import {
  type IdempotencyRecord,
  IdempotencyStore,
  type IdempotencyStoreShape
} from "../../application/ports/IdempotencyStore.ts"
import { fromDate, toDate } from "./time.ts"

interface RecordRow {
  readonly scope: string
  readonly key: string
  readonly request_hash: string
  readonly post_id: string
  readonly created_at: Date
  readonly expires_at: Date
}

const fromRow = (row: RecordRow): IdempotencyRecord => ({
  scope: row.scope,
  key: row.key,
  requestHash: row.request_hash,
  postId: row.post_id,
  createdAt: fromDate(row.created_at),
  expiresAt: fromDate(row.expires_at)
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The upsert takes the key when it is free or its record has expired; a live record stays and
  // the statement returns nothing. A concurrent claim waits on the primary key until ours commits.
  const take = (r: IdempotencyRecord, now: number) =>
    sql<{ scope: string }>`
      INSERT INTO idempotency_keys (scope, key, request_hash, post_id, created_at, expires_at)
      VALUES (${r.scope}, ${r.key}, ${r.requestHash}, ${r.postId}, ${toDate(r.createdAt)}, ${toDate(r.expiresAt)})
      ON CONFLICT (scope, key) DO UPDATE SET
        request_hash = excluded.request_hash, post_id = excluded.post_id,
        created_at = excluded.created_at, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= ${toDate(now)}
      RETURNING scope`

  // A separate statement (a fresh snapshot under READ COMMITTED) sees the holder that just committed.
  const holder = (r: IdempotencyRecord) =>
    sql<RecordRow>`SELECT * FROM idempotency_keys WHERE scope = ${r.scope} AND key = ${r.key}`

  const claim = (r: IdempotencyRecord, now: number, attempt: number): Effect.Effect<Option.Option<IdempotencyRecord>> =>
    Effect.gen(function* () {
      if ((yield* take(r, now)).length > 0) return Option.none()
      const rows = yield* holder(r)
      if (rows[0]) return Option.some(fromRow(rows[0]))
      // The holder vanished between the two statements: try again, a bounded number of times.
      if (attempt >= 3) return yield* Effect.die(new Error("idempotency claim kept racing"))
      return yield* claim(r, now, attempt + 1)
    }).pipe(Effect.orDie)

  return { claim: (record, now) => claim(record, now, 1) } satisfies IdempotencyStoreShape
})

export const layer = Layer.effect(IdempotencyStore)(make)
