import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"

/** Herald's registration on one instance (POST /api/v1/apps), for one callback URL. */
export interface RegisteredApp {
  readonly origin: string
  readonly redirectUri: string
  readonly clientId: string
  readonly clientSecret: string
  readonly scopes: string
  readonly createdAt: number
}

/** Where registrations are kept: Herald registers once per instance and callback, not at every connect. */
export interface AppRegistry {
  readonly find: (origin: string, redirectUri: string) => Effect.Effect<Option.Option<RegisteredApp>>
  /** Keeps the first registration stored for the pair (two connects at once: one wins, both use it). */
  readonly keep: (app: RegisteredApp) => Effect.Effect<RegisteredApp>
}

/** The table behind the registry (network migration 0043). */
export const appsMigration = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`CREATE TABLE IF NOT EXISTS mastodon_apps (
    origin text NOT NULL,
    redirect_uri text NOT NULL,
    client_id text NOT NULL,
    client_secret text NOT NULL,
    scopes text NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (origin, redirect_uri)
  )`
)

interface Row {
  readonly origin: string
  readonly redirect_uri: string
  readonly client_id: string
  readonly client_secret: string
  readonly scopes: string
  readonly created_at: string | number
}

const appOf = (row: Row): RegisteredApp => ({
  origin: row.origin,
  redirectUri: row.redirect_uri,
  clientId: row.client_id,
  clientSecret: row.client_secret,
  scopes: row.scopes,
  createdAt: Number(row.created_at)
})

/** Registrations in the database, so every Herald process and restart uses the same app on an instance. */
export const sqlRegistry = (sql: SqlClient.SqlClient): AppRegistry => {
  const find = (origin: string, redirectUri: string) =>
    sql<Row>`SELECT * FROM mastodon_apps WHERE origin = ${origin} AND redirect_uri = ${redirectUri}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), appOf)),
      Effect.orDie
    )
  return {
    find,
    keep: (app) =>
      sql`INSERT INTO mastodon_apps (origin, redirect_uri, client_id, client_secret, scopes, created_at)
        VALUES (${app.origin}, ${app.redirectUri}, ${app.clientId}, ${app.clientSecret}, ${app.scopes}, ${app.createdAt})
        ON CONFLICT (origin, redirect_uri) DO NOTHING`.pipe(
        Effect.orDie,
        Effect.andThen(find(app.origin, app.redirectUri)),
        Effect.map(Option.getOrElse(() => app))
      )
  }
}

/** Registrations in memory, for hosts without a database (the in-memory test host): a restart registers again. */
export const memoryRegistry = (): AppRegistry => {
  const apps = new Map<string, RegisteredApp>()
  const key = (origin: string, redirectUri: string) => `${origin} ${redirectUri}`
  return {
    find: (origin, redirectUri) => Effect.sync(() => Option.fromNullishOr(apps.get(key(origin, redirectUri)))),
    keep: (app) =>
      Effect.sync(() => {
        const k = key(app.origin, app.redirectUri)
        if (!apps.has(k)) apps.set(k, app)
        return apps.get(k)!
      })
  }
}
