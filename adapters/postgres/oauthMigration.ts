/** Herald's authorization server (domain/oauth.ts): clients, people's grants, codes and tokens, stored hashed. */
export const oauthStatements = [
  `CREATE TABLE oauth_clients (
    id text PRIMARY KEY,
    kind text NOT NULL,
    name text NOT NULL,
    uri text,
    redirect_uris jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    fetched_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_grants (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    client_id text NOT NULL,
    client_name text NOT NULL,
    name text NOT NULL,
    resource text NOT NULL,
    scope text NOT NULL,
    require_approval boolean NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    last_used_at timestamptz
  )`,
  `CREATE INDEX oauth_grants_workspace_idx ON oauth_grants (workspace_id, created_at)`,
  `CREATE TABLE oauth_codes (
    hash text PRIMARY KEY,
    grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    client_id text NOT NULL,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    resource text NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE TABLE oauth_tokens (
    hash text PRIMARY KEY,
    kind text NOT NULL,
    grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`,
  `CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id)`,
  // The sweeper deletes expired tokens (and codes) in batches.
  `CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at)`,
  `CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at)`
]
