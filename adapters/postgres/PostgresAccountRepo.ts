import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { AccountRepo, type AccountRepoShape } from "../../application/ports/AccountRepo.ts"
import type { Account, AccountStatus } from "../../domain/account.ts"
import type { Platform } from "../../domain/platforms.ts"
import { fromDate, toDate } from "./time.ts"

interface AccountRow {
  readonly id: string
  readonly workspace_id: string
  readonly platform: string
  readonly name: string
  readonly username: string
  readonly avatar_url: string | null
  readonly status: string
  readonly connected_at: Date
  readonly external_id: string
}

const fromRow = (row: AccountRow): Account => ({
  id: row.id,
  workspaceId: row.workspace_id,
  platform: row.platform as Platform,
  name: row.name,
  username: row.username,
  avatarUrl: row.avatar_url,
  status: row.status as AccountStatus,
  connectedAt: fromDate(row.connected_at),
  externalId: row.external_id
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    // A reconnection keeps the stored id (posts and jobs refer to it) and replaces the rest.
    upsert: (a) =>
      sql<AccountRow>`
        INSERT INTO accounts (id, workspace_id, platform, name, username, avatar_url, status, connected_at, external_id)
        VALUES (${a.id}, ${a.workspaceId}, ${a.platform}, ${a.name}, ${a.username}, ${a.avatarUrl}, ${a.status},
                ${toDate(a.connectedAt)}, ${a.externalId})
        ON CONFLICT (workspace_id, platform, external_id) DO UPDATE SET
          name = excluded.name, username = excluded.username, avatar_url = excluded.avatar_url,
          status = excluded.status, connected_at = excluded.connected_at
        RETURNING *`.pipe(
        Effect.flatMap((rows) => (rows[0] ? Effect.succeed(fromRow(rows[0])) : Effect.die("upsert returned no row"))),
        Effect.orDie
      ),
    listByWorkspace: (workspaceId) =>
      sql<AccountRow>`SELECT * FROM accounts WHERE workspace_id = ${workspaceId} ORDER BY connected_at, id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    findById: (workspaceId, id) =>
      sql<AccountRow>`SELECT * FROM accounts WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    setStatus: (workspaceId, id, status, from) =>
      sql`UPDATE accounts SET status = ${status}
        WHERE ${sql.and([sql`id = ${id}`, sql`workspace_id = ${workspaceId}`, ...(from === undefined ? [] : [sql`status = ${from}`])])}
        RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    // The credentials row cascades with the account.
    delete: (workspaceId, id) =>
      sql`DELETE FROM accounts WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  } satisfies AccountRepoShape
})

export const layer = Layer.effect(AccountRepo)(make)
