import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { CredentialStore, type CredentialStoreShape, type StoredCredentials } from "../../application/ports/CredentialStore.ts"

interface Row {
  readonly sealed: string
  readonly expires_at: string | number | null
  readonly version: number
}

const fromRow = (row: Row): StoredCredentials => ({
  sealed: row.sealed,
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  version: row.version
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    put: (accountId, update) =>
      sql`INSERT INTO account_credentials (account_id, sealed, expires_at, version) VALUES (${accountId}, ${update.sealed}, ${update.expiresAt}, 1)
          ON CONFLICT (account_id) DO UPDATE SET sealed = excluded.sealed, expires_at = excluded.expires_at,
            version = account_credentials.version + 1, updated_at = now()`.pipe(Effect.asVoid, Effect.orDie),
    get: (accountId) =>
      sql<Row>`SELECT sealed, expires_at, version FROM account_credentials WHERE account_id = ${accountId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    // The row lock is held across the network call, so a second renewal waits and then finds the newer version.
    renew: (accountId, seen, renew) =>
      Effect.gen(function* () {
        const rows = yield* sql<Row>`SELECT sealed, expires_at, version FROM account_credentials WHERE account_id = ${accountId} FOR UPDATE`.pipe(Effect.orDie)
        if (rows[0] === undefined) return yield* Effect.die(new Error(`no credentials for ${accountId}`))
        const current = fromRow(rows[0])
        if (current.version !== seen) return current
        const next = yield* renew(current)
        yield* sql`UPDATE account_credentials SET sealed = ${next.sealed}, expires_at = ${next.expiresAt}, version = ${current.version + 1}, updated_at = now()
                   WHERE account_id = ${accountId}`.pipe(Effect.orDie)
        return { ...next, version: current.version + 1 }
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", (e) => Effect.die(e))
      ),
    delete: (accountId) => sql`DELETE FROM account_credentials WHERE account_id = ${accountId}`.pipe(Effect.asVoid, Effect.orDie)
  } satisfies CredentialStoreShape
})

export const layer = Layer.effect(CredentialStore)(make)
