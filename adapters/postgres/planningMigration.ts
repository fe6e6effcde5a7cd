/**
 * Posting schedules (PostgresScheduleRepo). A queue entry is one target account of a queued post at
 * its slot; (account, slot) is unique, so no two posts hold one account's slot. An entry counts while
 * its post stands at that slot (read through a join on posts): a cancel or a reschedule frees it
 * without touching this table. Everything goes with its workspace.
 */
export const planningStatements = [
  `CREATE TABLE schedules (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name text NOT NULL,
    account_ids text[] NOT NULL,
    time_zone text NOT NULL,
    slots jsonb NOT NULL,
    paused_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  `CREATE INDEX schedules_workspace_idx ON schedules (workspace_id, created_at)`,
  `CREATE TABLE queue_entries (
    account_id text NOT NULL,
    slot_at timestamptz NOT NULL,
    post_id text COLLATE "C" NOT NULL,
    schedule_id text NOT NULL,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, slot_at)
  )`,
  `CREATE INDEX queue_entries_post_idx ON queue_entries (post_id)`,
  `CREATE INDEX queue_entries_schedule_idx ON queue_entries (schedule_id, slot_at)`,
  `CREATE TABLE account_time_zones (
    account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    time_zone text NOT NULL
  )`
]
