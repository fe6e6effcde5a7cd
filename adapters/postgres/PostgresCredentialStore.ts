import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import {
  CredentialStore,
  type CredentialStoreShape,
  type GrantLifetime,
  type StoredCredentials,
  storedFrom
} from "../../application/ports/CredentialStore.ts"

interface LifetimeRow {
  readonly expires_at: string | number | null
  readonly refreshable: boolean | null
  readonly refresh_expires_at: string | number | null
}

interface Row extends LifetimeRow {
  readonly sealed: string
  readonly version: number
}

// bigint columns arrive as strings.
const epoch = (value: string | number | null) => (value === null ? null : Number(value))

const lifetimeOf = (row: LifetimeRow): GrantLifetime => ({
  expiresAt: epoch(row.expires_at),
  refreshable: row.refreshable,
  refreshExpiresAt: epoch(row.refresh_expires_at)
})

const fromRow = (row: Row): StoredCredentials => ({ sealed: row.sealed, version: row.version, ...lifetimeOf(row) })

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    put: (accountId, update) => {
      const u = storedFrom(update, 1)
      return sql`INSERT INTO account_credentials (account_id, sealed, expires_at, refreshable, refresh_expires_at, version)
          VALUES (${accountId}, ${u.sealed}, ${u.expiresAt}, ${u.refreshable}, ${u.refreshExpiresAt}, 1)
          ON CONFLICT (account_id) DO UPDATE SET sealed = excluded.sealed, expires_at = excluded.expires_at, refreshable = excluded.refreshable,
            refresh_expires_at = excluded.refresh_expires_at, version = account_credentials.version + 1, updated_at = now()`.pipe(
        Effect.asVoid,
        Effect.orDie
      )
    },
    get: (accountId) =>
      sql<Row>`SELECT sealed, expires_at, refreshable, refresh_expires_at, version FROM account_credentials WHERE account_id = ${accountId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    lifetimes: (accountIds) =>
      accountIds.length === 0
        ? Effect.succeed(new Map())
        : sql<LifetimeRow & { readonly account_id: string }>`
            SELECT account_id, expires_at, refreshable, refresh_expires_at FROM account_credentials WHERE account_id = ANY(${[...accountIds]}::text[])`.pipe(
            Effect.map((rows) => new Map(rows.map((row) => [row.account_id, lifetimeOf(row)]))),
            Effect.orDie
          ),
    // The row lock is held across the network call, so a second renewal waits and then finds the newer version.
    renew: (accountId, seen, renew) =>
      Effect.gen(function* () {
        const rows =
          yield* sql<Row>`SELECT sealed, expires_at, refreshable, refresh_expires_at, version FROM account_credentials WHERE account_id = ${accountId} FOR UPDATE`.pipe(
            Effect.orDie
          )
        if (rows[0] === undefined) return yield* Effect.die(new Error(`no credentials for ${accountId}`))
        const current = fromRow(rows[0])
        if (current.version !== seen) return current
        const next = storedFrom(yield* renew(current), current.version + 1)
        yield* sql`UPDATE account_credentials SET sealed = ${next.sealed}, expires_at = ${next.expiresAt}, refreshable = ${next.refreshable},
                     refresh_expires_at = ${next.refreshExpiresAt}, version = ${next.version}, updated_at = now()
                   WHERE account_id = ${accountId}`.pipe(Effect.orDie)
        return next
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", (e) => Effect.die(e))
      ),
    delete: (accountId) =>
      sql`DELETE FROM account_credentials WHERE account_id = ${accountId}`.pipe(Effect.asVoid, Effect.orDie)
  } satisfies CredentialStoreShape
})

export const layer = Layer.effect(CredentialStore)(make)
