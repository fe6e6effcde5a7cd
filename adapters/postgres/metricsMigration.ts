/**
 * What each post did (0075): one row per published target, which is also the refresh's due table
 * (`due_at`, leased with `leased_until`), its latest figures beside it for GET /posts/{id}; every
 * reading kept in metric_readings; and each account's metrics state (`unavailable` with the network's
 * reason, when the on-demand floor was last used).
 */
export const metricsStatements: ReadonlyArray<string> = [
  `CREATE TABLE metric_targets (
    post_id text COLLATE "C" NOT NULL,
    account_id text NOT NULL,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    platform text NOT NULL,
    external_id text NOT NULL,
    published_at timestamptz NOT NULL,
    stage smallint NOT NULL DEFAULT 0,
    due_at timestamptz,
    leased_until timestamptz,
    latest jsonb,
    latest_at timestamptz,
    PRIMARY KEY (post_id, account_id)
  )`,
  // Partial: targets past their last scheduled read leave the index.
  `CREATE INDEX metric_targets_due_idx ON metric_targets (due_at) WHERE due_at IS NOT NULL`,
  `CREATE INDEX metric_targets_published_idx ON metric_targets (workspace_id, published_at)`,
  `CREATE INDEX metric_targets_account_idx ON metric_targets (account_id) WHERE due_at IS NOT NULL`,
  `CREATE TABLE metric_readings (
    post_id text COLLATE "C" NOT NULL,
    account_id text NOT NULL,
    read_at timestamptz NOT NULL,
    raw jsonb NOT NULL,
    PRIMARY KEY (post_id, account_id, read_at),
    FOREIGN KEY (post_id, account_id) REFERENCES metric_targets (post_id, account_id) ON DELETE CASCADE
  )`,
  `CREATE TABLE metric_accounts (
    account_id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    state text NOT NULL,
    reason text,
    checked_at timestamptz NOT NULL,
    demanded_at timestamptz
  )`,
  `CREATE INDEX metric_accounts_workspace_idx ON metric_accounts (workspace_id)`
]
