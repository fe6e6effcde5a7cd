import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { EmailTaken, WorkspaceRepo, type WorkspaceRepoShape } from "../../application/ports/WorkspaceRepo.ts"
import type { ApprovalMail, Locale, Plan, Workspace } from "../../domain/workspace.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly owner_email: string
  readonly plan: string
  readonly claimed: boolean
  readonly locale: string
  readonly time_zone: string
  readonly approval_mail: string
  readonly created_at: Date
  readonly expires_at: Date | null
}

const fromRow = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  ownerEmail: row.owner_email,
  plan: row.plan as Plan,
  claimed: row.claimed,
  locale: row.locale as Locale,
  timeZone: row.time_zone,
  approvalMail: row.approval_mail as ApprovalMail,
  createdAt: fromDate(row.created_at),
  expiresAt: fromDateOrNull(row.expires_at)
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const one = (rows: ReadonlyArray<WorkspaceRow>) => Option.map(Option.fromNullishOr(rows[0]), fromRow)
  return {
    // ON CONFLICT on the unique e-mail (not read-then-write): a concurrent sign-up with the same
    // address waits for ours and gets no row; no failed statement poisons an enclosing transaction.
    insert: (ws) =>
      sql<{ id: string }>`
        INSERT INTO workspaces (id, name, owner_email, plan, claimed, locale, time_zone, approval_mail, created_at, expires_at)
        VALUES (${ws.id}, ${ws.name}, ${ws.ownerEmail}, ${ws.plan}, ${ws.claimed}, ${ws.locale}, ${ws.timeZone}, ${ws.approvalMail},
                ${toDate(ws.createdAt)}, ${toDateOrNull(ws.expiresAt)})
        ON CONFLICT (owner_email) DO NOTHING
        RETURNING id`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new EmailTaken()) : Effect.void))
      ),
    findById: (id) => sql<WorkspaceRow>`SELECT * FROM workspaces WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
    findByEmail: (email) =>
      sql<WorkspaceRow>`SELECT * FROM workspaces WHERE owner_email = ${email}`.pipe(Effect.map(one), Effect.orDie),
    lock: (id) => sql`SELECT id FROM workspaces WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),
    update: (ws) =>
      sql`
        UPDATE workspaces SET name = ${ws.name}, owner_email = ${ws.ownerEmail}, plan = ${ws.plan},
          claimed = ${ws.claimed}, locale = ${ws.locale}, time_zone = ${ws.timeZone},
          approval_mail = ${ws.approvalMail}, created_at = ${toDate(ws.createdAt)},
          expires_at = ${toDateOrNull(ws.expiresAt)}
        WHERE id = ${ws.id}`.pipe(Effect.asVoid, Effect.orDie),
    listExpiredUnclaimed: (now, limit) =>
      sql<WorkspaceRow>`
        SELECT * FROM workspaces WHERE NOT claimed AND expires_at <= ${toDate(now)}
        ORDER BY expires_at, id LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    // Keys, tokens, accounts, media, posts, usage (and jobs) follow through ON DELETE CASCADE.
    delete: (id) => sql`DELETE FROM workspaces WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
    countCreatedBetween: (from, to) =>
      sql<{ count: number }>`
        SELECT count(*)::int AS count FROM workspaces
        WHERE created_at >= ${toDate(from)} AND created_at < ${toDate(to)}`.pipe(
        Effect.map((rows) => rows[0]?.count ?? 0),
        Effect.orDie
      )
  } satisfies WorkspaceRepoShape
})

export const layer = Layer.effect(WorkspaceRepo)(make)
