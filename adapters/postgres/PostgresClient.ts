import type { Redacted } from "effect"
import { PgClient } from "@effect/sql-pg"

/** A pooled client for a PostgreSQL server, e.g. from `DATABASE_URL`. */
export const layer = (url: Redacted.Redacted<string>, options?: { readonly maxConnections?: number }) =>
  PgClient.layer({ url, maxConnections: options?.maxConnections ?? 10 })
