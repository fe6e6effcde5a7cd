import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { OAuthStore, type OAuthStoreShape } from "../../application/ports/OAuthStore.ts"
import { KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import type {
  AuthorizationCode,
  ClientKind,
  OAuthClient,
  OAuthGrant,
  OAuthToken,
  OAuthTokenKind
} from "../../domain/oauth.ts"
import { fromDate, fromDateOrNull, toDate, toDateOrNull } from "./time.ts"

interface ClientRow {
  readonly id: string
  readonly kind: string
  readonly name: string
  readonly uri: string | null
  readonly redirect_uris: ReadonlyArray<string> | string
  readonly created_at: Date
  readonly fetched_at: Date
}

interface GrantRow {
  readonly id: string
  readonly workspace_id: string
  readonly client_id: string
  readonly client_name: string
  readonly name: string
  readonly resource: string
  readonly scope: string
  readonly require_approval: boolean
  readonly created_at: Date
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
}

interface CodeRow {
  readonly hash: string
  readonly grant_id: string
  readonly client_id: string
  readonly redirect_uri: string
  readonly code_challenge: string
  readonly resource: string
  readonly expires_at: Date
}

interface TokenRow {
  readonly hash: string
  readonly kind: string
  readonly grant_id: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

const clientOf = (r: ClientRow): OAuthClient => ({
  id: r.id,
  kind: r.kind as ClientKind,
  name: r.name,
  uri: r.uri,
  // jsonb arrives parsed from a server, as text from some drivers.
  redirectUris: typeof r.redirect_uris === "string" ? JSON.parse(r.redirect_uris) : r.redirect_uris,
  createdAt: fromDate(r.created_at),
  fetchedAt: fromDate(r.fetched_at)
})

const grantOf = (r: GrantRow): OAuthGrant => ({
  id: r.id,
  workspaceId: r.workspace_id,
  clientId: r.client_id,
  clientName: r.client_name,
  name: r.name,
  resource: r.resource,
  scope: r.scope,
  requireApproval: r.require_approval,
  createdAt: fromDate(r.created_at),
  revokedAt: fromDateOrNull(r.revoked_at),
  lastUsedAt: fromDateOrNull(r.last_used_at)
})

const codeOf = (r: CodeRow): AuthorizationCode => ({
  hash: r.hash,
  grantId: r.grant_id,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  resource: r.resource,
  expiresAt: fromDate(r.expires_at)
})

const tokenOf = (r: TokenRow): OAuthToken => ({
  hash: r.hash,
  kind: r.kind as OAuthTokenKind,
  grantId: r.grant_id,
  createdAt: fromDate(r.created_at),
  expiresAt: fromDate(r.expires_at),
  usedAt: fromDateOrNull(r.used_at)
})

const first =
  <R, A>(of: (row: R) => A) =>
  (rows: ReadonlyArray<R>) =>
    Option.map(Option.fromNullishOr(rows[0]), of)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return {
    saveClient: (c) =>
      sql`
        INSERT INTO oauth_clients (id, kind, name, uri, redirect_uris, created_at, fetched_at)
        VALUES (${c.id}, ${c.kind}, ${c.name}, ${c.uri}, ${JSON.stringify(c.redirectUris)}::jsonb,
                ${toDate(c.createdAt)}, ${toDate(c.fetchedAt)})
        ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, uri = EXCLUDED.uri,
          redirect_uris = EXCLUDED.redirect_uris, fetched_at = EXCLUDED.fetched_at`.pipe(Effect.asVoid, Effect.orDie),
    findClient: (id) =>
      sql<ClientRow>`SELECT * FROM oauth_clients WHERE id = ${id}`.pipe(Effect.map(first(clientOf)), Effect.orDie),
    insertGrant: (g) =>
      sql`
        INSERT INTO oauth_grants (id, workspace_id, client_id, client_name, name, resource, scope, require_approval,
                                  created_at, revoked_at, last_used_at)
        VALUES (${g.id}, ${g.workspaceId}, ${g.clientId}, ${g.clientName}, ${g.name}, ${g.resource}, ${g.scope},
                ${g.requireApproval}, ${toDate(g.createdAt)}, ${toDateOrNull(g.revokedAt)}, ${toDateOrNull(g.lastUsedAt)})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    findGrant: (id) =>
      sql<GrantRow>`SELECT * FROM oauth_grants WHERE id = ${id}`.pipe(Effect.map(first(grantOf)), Effect.orDie),
    listGrants: (workspaceId) =>
      sql<GrantRow>`SELECT * FROM oauth_grants WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`.pipe(
        Effect.map((rows) => rows.map(grantOf)),
        Effect.orDie
      ),
    // One statement: the grant ends and its tokens go with it, so no token outlives a revoked grant.
    revokeGrant: (id, workspaceId, now) =>
      sql<{ id: string }>`
        WITH revoked AS (
          UPDATE oauth_grants SET revoked_at = ${toDate(now)}
          WHERE id = ${id} AND revoked_at IS NULL ${workspaceId === null ? sql`` : sql`AND workspace_id = ${workspaceId}`}
          RETURNING id
        ), gone AS (DELETE FROM oauth_tokens WHERE grant_id IN (SELECT id FROM revoked))
        SELECT id FROM revoked`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    recordGrantUse: (id, at) =>
      sql`
        UPDATE oauth_grants SET last_used_at = ${toDate(at)}
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at <= ${toDate(at - KEY_USE_RESOLUTION_MS)})`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),
    insertCode: (c) =>
      sql`
        INSERT INTO oauth_codes (hash, grant_id, client_id, redirect_uri, code_challenge, resource, expires_at)
        VALUES (${c.hash}, ${c.grantId}, ${c.clientId}, ${c.redirectUri}, ${c.codeChallenge}, ${c.resource},
                ${toDate(c.expiresAt)})`.pipe(Effect.asVoid, Effect.orDie),
    consumeCode: (hash, now) =>
      sql<CodeRow>`DELETE FROM oauth_codes WHERE hash = ${hash} RETURNING *`.pipe(
        Effect.map((rows) => Option.filter(first(codeOf)(rows), (c) => c.expiresAt > now)),
        Effect.orDie
      ),
    insertToken: (t) =>
      sql`
        INSERT INTO oauth_tokens (hash, kind, grant_id, created_at, expires_at, used_at)
        VALUES (${t.hash}, ${t.kind}, ${t.grantId}, ${toDate(t.createdAt)}, ${toDate(t.expiresAt)},
                ${toDateOrNull(t.usedAt)})`.pipe(Effect.asVoid, Effect.orDie),
    findToken: (hash) =>
      sql<TokenRow>`SELECT * FROM oauth_tokens WHERE hash = ${hash}`.pipe(Effect.map(first(tokenOf)), Effect.orDie),
    useRefreshToken: (hash, now) =>
      sql<{ hash: string }>`
        UPDATE oauth_tokens SET used_at = ${toDate(now)}
        WHERE hash = ${hash} AND kind = 'refresh' AND used_at IS NULL
        RETURNING hash`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    sweep: (now, limit) =>
      Effect.all([
        sql<{ hash: string }>`
          DELETE FROM oauth_codes WHERE hash IN (
            SELECT hash FROM oauth_codes WHERE expires_at <= ${toDate(now)} LIMIT ${limit}
          ) RETURNING hash`,
        sql<{ hash: string }>`
          DELETE FROM oauth_tokens WHERE hash IN (
            SELECT hash FROM oauth_tokens WHERE expires_at <= ${toDate(now)} LIMIT ${limit}
          ) RETURNING hash`
      ]).pipe(
        Effect.map(([codes, tokens]) => codes.length + tokens.length),
        Effect.orDie
      )
  } satisfies OAuthStoreShape
})

export const layer = Layer.effect(OAuthStore)(make)
