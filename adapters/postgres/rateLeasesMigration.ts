/**
 * What the last statement on a rate window granted: a lease of several hits (PostgresRateLimiter's
 * `take`) reads back how many it got from the row it locked, which the old count alone cannot tell.
 */
export const rateLeasesStatements = [`ALTER TABLE rate_windows ADD COLUMN granted integer NOT NULL DEFAULT 0`]
