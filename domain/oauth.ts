import { Schema } from "effect"

// Herald as an OAuth 2.1 authorization server for its MCP endpoint (the MCP specification's authorization
// section): the rules and shapes, no I/O. Times are epoch milliseconds.

/** An access token lives an hour: a revoked connection stops within that even where a cache still holds it. */
export const ACCESS_TOKEN_LIFETIME_MS = 60 * 60 * 1000
/** A refresh token lives 30 days from its issue; each use replaces it (rotation), so a connection in use lives on. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
/** An authorization code is good for five minutes and once. */
export const CODE_LIFETIME_MS = 5 * 60 * 1000
/** A Client ID Metadata Document is fetched again after this long (RFC: clients may change theirs). */
export const CLIENT_DOCUMENT_TTL_MS = 10 * 60 * 1000
/** The most of a client document Herald reads. */
export const CLIENT_DOCUMENT_MAX_BYTES = 16 * 1024
/** The path of the MCP endpoint, the one protected resource. */
export const MCP_RESOURCE_PATH = "/mcp"

/**
 * One scope: everything an API key of the workspace may do over MCP. What differs between connections is
 * not the tools but whether posts wait for a person: that is chosen on the consent page, not asked for in a scope.
 */
export const SCOPE = "herald"

/** Where a client's identity comes from: registered here (RFC 7591), or a document at its client_id URL. */
export type ClientKind = "registered" | "document"

export interface OAuthClient {
  /** `cli_...` for a registered client; the document's URL for a metadata-document client. */
  readonly id: string
  readonly kind: ClientKind
  /** The name the client claims for itself: shown to people as the client's words, never as Herald's. */
  readonly name: string
  readonly uri: string | null
  readonly redirectUris: ReadonlyArray<string>
  readonly createdAt: number
  /** When the document was read (document clients); the registration time otherwise. */
  readonly fetchedAt: number
}

/** A person's consent: one client acting in one workspace, asks-first or not, until revoked. */
export interface OAuthGrant {
  /** `grt_...`: the id posts name in `createdBy` and the keys list shows. */
  readonly id: string
  readonly workspaceId: string
  readonly clientId: string
  readonly clientName: string
  /** The person's name for the connection (defaults to the client's name). */
  readonly name: string
  readonly resource: string
  readonly scope: string
  readonly requireApproval: boolean
  readonly createdAt: number
  readonly revokedAt: number | null
  readonly lastUsedAt: number | null
}

export interface AuthorizationCode {
  /** SHA-256 of the code. */
  readonly hash: string
  readonly grantId: string
  readonly clientId: string
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: string
  readonly expiresAt: number
}

export type OAuthTokenKind = "access" | "refresh"

export interface OAuthToken {
  /** SHA-256 of the token; the token itself is never stored. */
  readonly hash: string
  readonly kind: OAuthTokenKind
  readonly grantId: string
  readonly createdAt: number
  readonly expiresAt: number
  /** A refresh token is used once; a second use is a stolen copy, and ends the grant. */
  readonly usedAt: number | null
}

/** An OAuth protocol error (RFC 6749 section 5.2, RFC 7591 section 3.2.2): the `error` code and a sentence. */
export class OAuthRefusal extends Schema.TaggedError<OAuthRefusal>()("OAuthRefusal", {
  error: Schema.String,
  description: Schema.String,
  /** Set when refused for coming too often: the Retry-After. */
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {}

export const refuse = (error: string, description: string) => new OAuthRefusal({ error, description })

/** Registrations are open to anyone: at most this many an hour from one client address. */
export const REGISTRATIONS_PER_HOUR = 30

/** The HTTP status of a token, registration or revocation error. */
export const refusalStatus = (refusal: OAuthRefusal): number =>
  refusal.retryAfterSeconds !== undefined ? 429 : refusal.error === "invalid_client" ? 401 : 400

const isLoopbackHost = (host: string) => host === "127.0.0.1" || host === "[::1]" || host === "localhost"

/**
 * A redirect URI a client may register: https anywhere, http only on this machine (native apps, RFC 8252),
 * or a private-use scheme (`com.example.app:/cb`); never with a fragment.
 */
export const redirectUriProblem = (raw: string): string | null => {
  const url = URL.parse(raw)
  if (url === null) return `${raw} is not an absolute URL.`
  if (url.hash !== "") return `${raw} has a fragment.`
  if (url.protocol === "https:") return null
  if (url.protocol === "http:") return isLoopbackHost(url.hostname) ? null : `${raw} uses http on a public host.`
  if (/^(javascript|data|file|vbscript):$/.test(url.protocol)) return `${raw} uses a forbidden scheme.`
  return url.protocol.includes(".") ? null : `${raw}: a private-use scheme must be a reversed domain name.`
}

/**
 * The redirect URI of a request matched against the registered ones: exactly, except that a loopback http
 * URI may name any port (RFC 8252 section 7.3: a native app's port is chosen when it runs).
 */
export const redirectUriMatches = (registered: ReadonlyArray<string>, requested: string): boolean => {
  if (registered.includes(requested)) return true
  const asked = URL.parse(requested)
  if (asked === null || asked.protocol !== "http:" || !isLoopbackHost(asked.hostname)) return false
  return registered.some((r) => {
    const known = URL.parse(r)
    if (known === null || known.protocol !== "http:" || known.hostname !== asked.hostname) return false
    return known.pathname === asked.pathname && known.search === asked.search
  })
}

/** The metadata a client sends to register or publishes at its client_id URL (RFC 7591 section 2). */
export const ClientMetadata = Schema.Struct({
  client_id: Schema.optional(Schema.String),
  client_name: Schema.optional(Schema.String),
  client_uri: Schema.optional(Schema.String),
  redirect_uris: Schema.Array(Schema.String),
  grant_types: Schema.optional(Schema.Array(Schema.String)),
  response_types: Schema.optional(Schema.Array(Schema.String)),
  token_endpoint_auth_method: Schema.optional(Schema.String),
  scope: Schema.optional(Schema.String)
})
export type ClientMetadata = typeof ClientMetadata.Type

const MAX_NAME = 100

/** Checks a client's metadata for what Herald needs: public clients, the code grant, sound redirect URIs. */
export const checkClientMetadata = (metadata: ClientMetadata): OAuthRefusal | null => {
  if (metadata.redirect_uris.length === 0 || metadata.redirect_uris.length > 10)
    return refuse("invalid_redirect_uri", "Give between 1 and 10 redirect_uris.")
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri)
    if (problem !== null) return refuse("invalid_redirect_uri", problem)
  }
  const method = metadata.token_endpoint_auth_method ?? "none"
  if (method !== "none")
    return refuse(
      "invalid_client_metadata",
      `token_endpoint_auth_method ${method} is not supported: Herald's clients are public clients ("none") and prove themselves with PKCE.`
    )
  const grants = metadata.grant_types ?? ["authorization_code"]
  if (!grants.includes("authorization_code") || grants.some((g) => g !== "authorization_code" && g !== "refresh_token"))
    return refuse("invalid_client_metadata", "grant_types may be authorization_code and refresh_token only.")
  if ((metadata.response_types ?? ["code"]).some((r) => r !== "code"))
    return refuse("invalid_client_metadata", 'response_types may be "code" only.')
  if (metadata.client_uri !== undefined && URL.parse(metadata.client_uri)?.protocol !== "https:")
    return refuse("invalid_client_metadata", "client_uri must be an https URL.")
  return null
}

/** The name a client claims, made safe to show as plain text: control characters dropped, length capped. */
export const claimedName = (raw: string | undefined, fallback: string): string => {
  const text = (raw ?? "").replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim()
  return text === "" ? fallback : text.slice(0, MAX_NAME)
}

/** A Client ID Metadata Document's URL: https with a path (loopback http only when the host allows it). */
export const clientDocumentUrlProblem = (raw: string, allowLoopbackHttp: boolean): string | null => {
  const url = URL.parse(raw)
  if (url === null) return "client_id is neither a registered client nor a URL."
  if (url.hash !== "" || url.username !== "" || url.password !== "")
    return "A client_id URL has no fragment and no credentials."
  if (url.pathname === "/") return "A client_id URL names a document: it needs a path."
  if (url.protocol === "https:") return null
  if (url.protocol === "http:" && allowLoopbackHttp && isLoopbackHost(url.hostname)) return null
  return "A client_id URL must use https."
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "")

/** base64url of the bytes a hex SHA-256 stands for: PKCE's S256 challenge from the Crypto port's hex digest. */
export const hexToBase64Url = (hex: string): string =>
  base64url(Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)))

/** RFC 7636: a verifier is 43 to 128 unreserved characters; a challenge is a 43-character S256 digest. */
export const isCodeVerifier = (text: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(text)
export const isCodeChallenge = (text: string) => /^[A-Za-z0-9\-_]{43}$/.test(text)

/** The resource Herald protects, from its public URL. */
export const mcpResource = (publicUrl: string) => `${publicUrl}${MCP_RESOURCE_PATH}`

/** RFC 9728: the protected resource's metadata. */
export const protectedResourceMetadata = (publicUrl: string) => ({
  resource: mcpResource(publicUrl),
  authorization_servers: [publicUrl],
  scopes_supported: [SCOPE],
  bearer_methods_supported: ["header"],
  resource_name: "Herald",
  resource_documentation: `${publicUrl}/api/v1/docs`
})

/** RFC 8414: the authorization server's metadata. */
export const authorizationServerMetadata = (publicUrl: string) => ({
  issuer: publicUrl,
  authorization_endpoint: `${publicUrl}/oauth/authorize`,
  token_endpoint: `${publicUrl}/oauth/token`,
  registration_endpoint: `${publicUrl}/oauth/register`,
  revocation_endpoint: `${publicUrl}/oauth/revoke`,
  scopes_supported: [SCOPE],
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  code_challenge_methods_supported: ["S256"],
  authorization_response_iss_parameter_supported: true,
  client_id_metadata_document_supported: true
})

/** Where the resource's metadata is served (RFC 9728 section 3.1: the resource's path after the well-known name). */
export const resourceMetadataUrl = (publicUrl: string) =>
  `${publicUrl}/.well-known/oauth-protected-resource${MCP_RESOURCE_PATH}`

/** Access and refresh tokens carry their kind in a prefix: neither can pass for an API key (`<prefix>_` + base62). */
export const accessTokenPrefix = (keyPrefix: string) => `${keyPrefix}_at_`
export const refreshTokenPrefix = (keyPrefix: string) => `${keyPrefix}_rt_`
