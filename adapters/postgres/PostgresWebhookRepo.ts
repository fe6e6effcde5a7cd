import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { WebhookRepo, type WebhookRepoShape } from "../../application/ports/WebhookRepo.ts"
import type { EventType } from "../../domain/events.ts"
import type { Webhook } from "../../domain/webhooks.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

interface WebhookRow {
  readonly id: string
  readonly workspace_id: string
  readonly url: string
  readonly event_types: ReadonlyArray<string>
  readonly description: string
  readonly enabled: boolean
  readonly sealed_secret: string
  readonly created_at: Date
  readonly updated_at: Date
  readonly failing_since: Date | null
  readonly disabled_reason: string | null
}

const fromRow = (r: WebhookRow): Webhook => ({
  id: r.id,
  workspaceId: r.workspace_id,
  url: r.url,
  eventTypes: r.event_types as ReadonlyArray<EventType>,
  description: r.description,
  enabled: r.enabled,
  sealedSecret: r.sealed_secret,
  createdAt: fromDate(r.created_at),
  updatedAt: fromDate(r.updated_at),
  failingSince: fromDateOrNull(r.failing_since),
  disabledReason: r.disabled_reason
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    insert: (w) =>
      sql`
        INSERT INTO webhooks (id, workspace_id, url, event_types, description, enabled, sealed_secret, created_at, updated_at, failing_since, disabled_reason)
        VALUES (${w.id}, ${w.workspaceId}, ${w.url}, ${w.eventTypes}::text[], ${w.description}, ${w.enabled}, ${w.sealedSecret},
          ${toDate(w.createdAt)}, ${toDate(w.updatedAt)}, ${toDateOrNull(w.failingSince)}, ${w.disabledReason})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    list: (workspaceId) =>
      sql<WebhookRow>`SELECT * FROM webhooks WHERE workspace_id = ${workspaceId} ORDER BY id`.pipe(
        Effect.map((rows) => rows.map(fromRow)),
        Effect.orDie
      ),
    find: (workspaceId, id) =>
      sql<WebhookRow>`SELECT * FROM webhooks WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), fromRow)),
        Effect.orDie
      ),
    update: (w) =>
      sql`
        UPDATE webhooks SET url = ${w.url}, event_types = ${w.eventTypes}::text[], description = ${w.description}, enabled = ${w.enabled},
          sealed_secret = ${w.sealedSecret}, updated_at = ${toDate(w.updatedAt)}, failing_since = ${toDateOrNull(w.failingSince)},
          disabled_reason = ${w.disabledReason}
        WHERE id = ${w.id} AND workspace_id = ${w.workspaceId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    delete: (workspaceId, id) =>
      sql`DELETE FROM webhooks WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )
  } satisfies WebhookRepoShape
})

export const layer = Layer.effect(WebhookRepo)(make)
