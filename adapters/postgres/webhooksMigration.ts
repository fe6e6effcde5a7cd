/**
 * The outbox and webhooks (PostgresEventOutbox, PostgresWebhookRepo, PostgresWebhookDeliveries).
 * `events.seq` orders a workspace's feed and a post's deliveries; `tx` is the writing transaction, so
 * a reader of the feed waits for an event still being written instead of skipping it. Event bodies are
 * text: the bytes signed are the bytes stored. Everything goes with its workspace.
 */
export const webhooksStatements = [
  `CREATE TABLE events (
    id text COLLATE "C" PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type text NOT NULL,
    resource_kind text NOT NULL,
    resource_id text NOT NULL,
    ordering_key text NOT NULL,
    only_webhook_id text,
    created_at timestamptz NOT NULL,
    body text NOT NULL
  )`,
  `CREATE UNIQUE INDEX events_seq_key ON events (seq)`,
  `CREATE INDEX events_workspace_seq_idx ON events (workspace_id, seq)`,
  `CREATE INDEX events_created_at_idx ON events (created_at)`,

  `CREATE TABLE webhooks (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url text NOT NULL,
    event_types text[] NOT NULL,
    description text NOT NULL,
    enabled boolean NOT NULL,
    sealed_secret text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    failing_since timestamptz,
    disabled_reason text
  )`,
  `CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id, id)`,

  // available_at: the next try while waiting, the lease's end while a worker holds it.
  `CREATE TABLE webhook_deliveries (
    id text COLLATE "C" PRIMARY KEY,
    webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    event_type text NOT NULL,
    seq bigint NOT NULL,
    ordering_key text NOT NULL,
    status text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    round_failures integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    available_at timestamptz NOT NULL,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    response_code integer,
    response_time_ms integer,
    error text,
    delivered_at timestamptz
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (available_at, seq) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, ordering_key, seq) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, id)`,
  `CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`
]
