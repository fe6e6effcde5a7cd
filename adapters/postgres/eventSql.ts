import type { HeraldEvent } from "../../domain/events.ts"

/** Events as the JSON parameter of `eventCtes`, in the order they happened. */
export const eventsJson = (events: ReadonlyArray<HeraldEvent>): string =>
  JSON.stringify(
    events.map((e) => ({
      id: e.id,
      workspace_id: e.workspaceId,
      type: e.type,
      resource_kind: e.resource.kind,
      resource_id: e.resource.id,
      ordering_key: e.orderingKey,
      only_webhook_id: e.onlyWebhookId ?? null,
      created_at: new Date(e.createdAt).toISOString(),
      body: e.body
    }))
  )

/**
 * Two CTEs, as SQL text: `<name>` stores the events of the jsonb array `param` (from eventsJson) that
 * pass `where` (over `x.e`, one element), numbered in array order; `<name>_deliveries` gives each a
 * pending delivery to every enabled endpoint of its workspace that subscribes to its type (a test
 * event: its own endpoint only). A delivery's id is its event's and its endpoint's.
 */
export const eventCtes = (name: string, param: string, where = "true"): string => `
  ${name} AS (
    INSERT INTO events (id, workspace_id, type, resource_kind, resource_id, ordering_key, only_webhook_id, created_at, body)
    SELECT x.e->>'id', x.e->>'workspace_id', x.e->>'type', x.e->>'resource_kind', x.e->>'resource_id', x.e->>'ordering_key',
      x.e->>'only_webhook_id', (x.e->>'created_at')::timestamptz, x.e->>'body'
    FROM jsonb_array_elements(${param}) WITH ORDINALITY AS x(e, n)
    WHERE ${where}
    ORDER BY x.n
    RETURNING seq, id, workspace_id, type, ordering_key, only_webhook_id, created_at
  ), ${name}_deliveries AS (
    INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, event_id, event_type, seq, ordering_key, status, created_at, available_at, next_attempt_at)
    SELECT 'dlv_' || split_part(ev.id, '_', 2) || split_part(w.id, '_', 2), w.id, ev.workspace_id, ev.id, ev.type, ev.seq, ev.ordering_key,
      'pending', ev.created_at, ev.created_at, ev.created_at
    FROM ${name} ev JOIN webhooks w ON w.workspace_id = ev.workspace_id
    WHERE CASE WHEN ev.only_webhook_id IS NOT NULL THEN w.id = ev.only_webhook_id
      ELSE w.enabled AND (cardinality(w.event_types) = 0 OR ev.type = ANY (w.event_types)) END
    RETURNING 1
  )`
