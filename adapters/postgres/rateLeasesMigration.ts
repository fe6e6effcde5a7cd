/**
 * Rate windows for request limits: a lease of several hits (PostgresRateLimiter's `take`) reads back
 * what it got from `granted`, written under the row's lock by the same statement (the old count
 * alone cannot tell it). The table is unlogged: a count is worth a minute, and without WAL a lease
 * commits without waiting for a disk flush (9 ms a lease with it on the development machine). A
 * crash of the database, or a fail-over to a replica, forgets the current windows: limits start afresh.
 */
export const rateLeasesStatements = [
  `ALTER TABLE rate_windows ADD COLUMN granted integer NOT NULL DEFAULT 0`,
  `ALTER TABLE rate_windows SET UNLOGGED`
]
