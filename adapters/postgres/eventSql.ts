import type { HeraldEvent } from "../../domain/events.ts"
import { formatUtc } from "../../domain/time.ts"
import { TEST_DELIVERY_HELD_MS } from "../../domain/webhooks.ts"

/**
 * Events as the JSON parameter of `eventCtes`, in the order they happened. Each body (already JSON,
 * fixed when the event was made) goes in as it is, not as an escaped string: the parameter is `json`,
 * which keeps its text, so json_to_recordset's `body json` column gives back the body's exact bytes.
 */
export const eventsJson = (events: ReadonlyArray<HeraldEvent>): string =>
  `[${events
    .map((e) => {
      const fields = JSON.stringify({
        id: e.id,
        workspace_id: e.workspaceId,
        type: e.type,
        resource_kind: e.resource.kind,
        resource_id: e.resource.id,
        ordering_key: e.orderingKey,
        only_webhook_id: e.onlyWebhookId ?? null,
        created_at: formatUtc(e.createdAt)
      })
      return `${fields.slice(0, -1)},"body":${e.body}}`
    })
    .join(",")}]`

/**
 * Two CTEs, as SQL text: `<name>` stores the events of the JSON array in parameter `param` (from eventsJson, e.g. "$6") that
 * pass `where` (over `x`, one event's columns), numbered in array order; `<name>_deliveries` gives each a
 * pending delivery to every enabled endpoint of its workspace that subscribes to its type (a test
 * event: its own endpoint only, planned TEST_DELIVERY_HELD_MS ahead). A delivery's id is its event's and its endpoint's.
 */
const held = `CASE WHEN ev.only_webhook_id IS NULL THEN interval '0' ELSE interval '${TEST_DELIVERY_HELD_MS} milliseconds' END`

export const eventCtes = (name: string, param: string, where = "true"): string => `
  ${name} AS (
    INSERT INTO events (id, workspace_id, type, resource_kind, resource_id, ordering_key, only_webhook_id, created_at, body)
    SELECT x.id, x.workspace_id, x.type, x.resource_kind, x.resource_id, x.ordering_key, x.only_webhook_id, x.created_at, x.body::text
    FROM ROWS FROM (json_to_recordset(${param}::json) AS (id text, workspace_id text, type text, resource_kind text, resource_id text,
      ordering_key text, only_webhook_id text, created_at timestamptz, body json)) WITH ORDINALITY
      AS x(id, workspace_id, type, resource_kind, resource_id, ordering_key, only_webhook_id, created_at, body, n)
    WHERE ${where}
    ORDER BY x.n
    RETURNING seq, id, workspace_id, type, ordering_key, only_webhook_id, created_at
  ), ${name}_deliveries AS (
    INSERT INTO webhook_deliveries (id, webhook_id, workspace_id, event_id, event_type, seq, ordering_key, status, created_at, available_at, next_attempt_at)
    SELECT 'dlv_' || split_part(ev.id, '_', 2) || split_part(w.id, '_', 2), w.id, ev.workspace_id, ev.id, ev.type, ev.seq, ev.ordering_key,
      'pending', ev.created_at, ev.created_at + ${held}, ev.created_at + ${held}
    FROM ${name} ev JOIN webhooks w ON w.workspace_id = ev.workspace_id
    WHERE CASE WHEN ev.only_webhook_id IS NOT NULL THEN w.id = ev.only_webhook_id
      ELSE w.enabled AND (cardinality(w.event_types) = 0 OR ev.type = ANY (w.event_types)) END
    RETURNING 1
  )`
