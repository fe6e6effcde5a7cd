import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { jobsMigration } from "./jobsMigration.ts"
import { metricsStatements } from "./metricsMigration.ts"
import { planningStatements } from "./planningMigration.ts"
import { rateLeasesStatements } from "./rateLeasesMigration.ts"
import { oauthStatements } from "./oauthMigration.ts"
import { webhooksStatements } from "./webhooksMigration.ts"

/** Runs statements one by one: the extended protocol takes a single statement per query. */
const statements = (list: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (const statement of list) yield* sql.unsafe(statement)
  })

/**
 * Storage for every repository port. Times are timestamptz (the domain's epoch milliseconds are
 * converted in the adapters); everything a workspace owns goes with it (ON DELETE CASCADE).
 */
const storage = statements([
  `CREATE TABLE workspaces (
    id text PRIMARY KEY,
    name text NOT NULL,
    owner_email text NOT NULL CONSTRAINT workspaces_owner_email_key UNIQUE,
    plan text NOT NULL,
    claimed boolean NOT NULL,
    locale text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz
  )`,
  `CREATE INDEX workspaces_unclaimed_expiry_idx ON workspaces (expires_at) WHERE NOT claimed`,
  `CREATE INDEX workspaces_created_at_idx ON workspaces (created_at)`,

  `CREATE TABLE api_keys (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    prefix text NOT NULL,
    hash text NOT NULL CONSTRAINT api_keys_hash_key UNIQUE,
    require_approval boolean NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`,
  `CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at)`,

  `CREATE TABLE tokens (
    hash text PRIMARY KEY,
    kind text NOT NULL,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email text NOT NULL,
    data text,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX tokens_workspace_kind_idx ON tokens (workspace_id, kind)`,
  `CREATE INDEX tokens_expires_at_idx ON tokens (expires_at)`,

  `CREATE TABLE accounts (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    platform text NOT NULL,
    name text NOT NULL,
    username text NOT NULL,
    avatar_url text,
    status text NOT NULL,
    connected_at timestamptz NOT NULL,
    external_id text NOT NULL,
    CONSTRAINT accounts_external_key UNIQUE (workspace_id, platform, external_id)
  )`,

  `CREATE TABLE media (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    type text NOT NULL,
    mime_type text NOT NULL,
    filename text NOT NULL,
    size_bytes bigint NOT NULL,
    width integer,
    height integer,
    duration_ms double precision,
    blob_key text NOT NULL,
    preview_key text,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX media_workspace_idx ON media (workspace_id)`,
  `CREATE INDEX media_expires_at_idx ON media (expires_at)`,

  // Targets live in a jsonb column: the port always reads and replaces a post with its targets.
  // Ids use the C collation so `ORDER BY id` matches the byte order ULIDs sort by.
  `CREATE TABLE posts (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    status text NOT NULL,
    content text NOT NULL,
    media_ids text[] NOT NULL,
    first_comment text,
    thread jsonb NOT NULL,
    poll jsonb,
    cover jsonb,
    tiktok_ai_generated boolean NOT NULL,
    scheduled_for timestamptz,
    require_approval boolean NOT NULL,
    created_by jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    published_at timestamptz,
    deleted_at timestamptz,
    deleted_reason text,
    targets jsonb NOT NULL
  )`,
  // Not partial: it also serves the cascade from workspaces, which must find deleted posts too.
  `CREATE INDEX posts_workspace_idx ON posts (workspace_id, id DESC)`,
  `CREATE INDEX posts_visible_status_idx ON posts (workspace_id, status, id DESC) WHERE deleted_at IS NULL`,

  // The (scope, key) primary key is what makes two concurrent claims create one record.
  `CREATE TABLE idempotency_keys (
    scope text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    post_id text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
  )`,
  `CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)`,

  `CREATE TABLE usage_counters (
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    month text NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (workspace_id, month)
  )`,

  // One row per bucket and window length, holding the current fixed window.
  `CREATE TABLE rate_windows (
    bucket text NOT NULL,
    window_ms bigint NOT NULL,
    window_start timestamptz NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (bucket, window_ms)
  )`,
  `CREATE INDEX rate_windows_window_start_idx ON rate_windows (window_start)`
])

/** Tables of the storage ports, children first (tests empty them between suites). */
export const storageTables = [
  "metric_readings",
  "metric_targets",
  "metric_accounts",
  "queue_entries",
  "schedules",
  "account_time_zones",
  "webhook_deliveries",
  "webhooks",
  "events",
  "rate_windows",
  "usage_counters",
  "idempotency_keys",
  "posts",
  "media",
  "account_credentials",
  "accounts",
  "tokens",
  "oauth_tokens",
  "oauth_codes",
  "oauth_grants",
  "oauth_clients",
  "api_keys",
  "workspaces"
] as const

/**
 * Migrations run in id order and only past the latest one applied, so new ones take a higher id.
 * Add a migration as a new entry; never edit one that has shipped.
 */
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_storage": storage,
  "0002_jobs": jobsMigration, // the publish queue (PostgresJobQueue); its jobs cascade with their workspace
  // GET /posts without a status filter: the newest visible posts straight from an index (it used the
  // status index and sorted the whole workspace: 26 ms at 45k posts, 0.06 ms with this one).
  "0003_posts_visible_idx": statements([
    `CREATE INDEX posts_visible_idx ON posts (workspace_id, id DESC) WHERE deleted_at IS NULL`
  ]),
  // A month's count in several rows (see usageShards.ts): an uncapped workspace's concurrent creates
  // no longer queue on one row lock through every commit. Existing counts become shard 0.
  "0004_usage_shards": statements([
    `ALTER TABLE usage_counters ADD COLUMN shard smallint NOT NULL DEFAULT 0`,
    `ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_pkey`,
    `ALTER TABLE usage_counters ADD PRIMARY KEY (workspace_id, month, shard)`
  ]),
  // The posts indexes in ascending id order: ULIDs grow, so new entries now go to the right edge of
  // each workspace's range (B-tree splits there keep pages full) instead of the left edge (half-empty
  // pages: 246 left splits per 5,000 creates in the WAL). Newest-first reads scan them backwards.
  "0005_posts_indexes_ascending": statements([
    `DROP INDEX posts_workspace_idx`,
    `CREATE INDEX posts_workspace_idx ON posts (workspace_id, id)`,
    `DROP INDEX posts_visible_status_idx`,
    `CREATE INDEX posts_visible_status_idx ON posts (workspace_id, status, id) WHERE deleted_at IS NULL`,
    `DROP INDEX posts_visible_idx`,
    `CREATE INDEX posts_visible_idx ON posts (workspace_id, id) WHERE deleted_at IS NULL`
  ]),
  // A connected account's network credentials, sealed by the TokenVault; `version` orders renewals.
  "0006_account_credentials": statements([
    `CREATE TABLE account_credentials (
      account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      sealed text NOT NULL,
      expires_at bigint,
      version integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  ]),
  // Events written with the changes they report, webhook endpoints and their deliveries (webhooksMigration.ts).
  "0007_webhooks": statements(webhooksStatements),
  // The post request's per-network objects (tiktok, youtube, pinterest), handed to those networks' publishers.
  "0008_post_network_options": statements([
    `ALTER TABLE posts ADD COLUMN network_options jsonb NOT NULL DEFAULT '{}'::jsonb`
  ]),
  // Per-network content (overrides of content, media, thread and first comment), keyed by platform.
  "0009_post_overrides": statements([`ALTER TABLE posts ADD COLUMN overrides jsonb NOT NULL DEFAULT '{}'::jsonb`]),
  // The people's app: the time zone it shows times in, and how the owner hears of posts waiting for approval.
  "0010_workspace_settings": statements([
    `ALTER TABLE workspaces ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC'`,
    `ALTER TABLE workspaces ADD COLUMN approval_mail text NOT NULL DEFAULT 'each'`
  ]),
  // When a grant ends, in clear beside the sealed tokens (a dry run reads it without opening them); null: stored before.
  "0011_credential_lifetimes": statements([
    `ALTER TABLE account_credentials ADD COLUMN refreshable boolean`,
    `ALTER TABLE account_credentials ADD COLUMN refresh_expires_at bigint`
  ]),
  // When each key was last used (to the hour), for the app's key list.
  "0012_api_key_last_used": statements([`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`]),
  // Every create writes an event: two B-tree inserts fewer per event. No query looks events up by seq
  // alone (the feed uses (workspace_id, seq)); the retention sweep finds old events through a BRIN
  // range index, which append-only, time-ordered rows keep small and almost free to maintain.
  "0013_events_lighter_indexes": statements([
    `DROP INDEX events_seq_key`,
    `DROP INDEX events_created_at_idx`,
    `CREATE INDEX events_created_at_brin ON events USING brin (created_at)`
  ]),
  // Fair webhook slots (PostgresWebhookDeliveries.lease): each workspace's due deliveries from an index of their own,
  // the tries in flight (leased, not recorded: lease end not a planned try) from a small one, and endpoint circuits.
  "0014_webhook_fair_shares": statements([
    `CREATE INDEX webhook_deliveries_workspace_due_idx ON webhook_deliveries (workspace_id, available_at, seq) WHERE status = 'pending'`,
    `CREATE INDEX webhook_deliveries_held_idx ON webhook_deliveries (available_at)
      WHERE status = 'pending' AND available_at IS DISTINCT FROM next_attempt_at`,
    `ALTER TABLE webhooks ADD COLUMN hangs integer NOT NULL DEFAULT 0`,
    `ALTER TABLE webhooks ADD COLUMN paused_until timestamptz`
  ]),
  "0030_rate_window_grants": statements(rateLeasesStatements), // leases of request budgets (rateLeasesMigration.ts)
  "0060_planning": statements(planningStatements), // posting schedules, queue entries, accounts' zones
  "0075_metrics": statements(metricsStatements), // what each post did: due table, readings, accounts' states
  "0080_oauth": statements(oauthStatements) // Herald's authorization server for MCP (oauthMigration.ts)
}

export const loader = Migrator.fromRecord(migrations)

/** Brings the schema up to date; the Migrator locks its table, so concurrent runs apply each migration once. */
export const migrate = Migrator.make({})({ loader })

/**
 * Herald's schema, then the tables networks keep for themselves (their declarations' migrations,
 * ids 0040-0049) in a migrations table of their own: the Migrator runs only ids above the latest it
 * recorded, so sharing Herald's table would let a network's id hide a later one of Herald's.
 */
export const migrateWith = (networkMigrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>) =>
  Effect.zipWith(
    migrate,
    Migrator.make({})({ loader: Migrator.fromRecord(networkMigrations), table: "herald_network_migrations" }),
    (herald, networks) => [...herald, ...networks]
  )
