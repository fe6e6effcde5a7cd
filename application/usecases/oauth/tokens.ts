import { Effect, Option } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { fail } from "../../../domain/errors.ts"
import {
  ACCESS_TOKEN_LIFETIME_MS,
  accessTokenPrefix,
  hexToBase64Url,
  isCodeVerifier,
  mcpResource,
  type OAuthGrant,
  REFRESH_TOKEN_LIFETIME_MS,
  refreshTokenPrefix,
  refuse
} from "../../../domain/oauth.ts"
import { isExpiredUnclaimed } from "../../../domain/workspace.ts"
import { HeraldConfig } from "../../config.ts"
import { readCache } from "../../readCache.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { OAuthStore } from "../../ports/OAuthStore.ts"
import { cachedWorkspace } from "../auth.ts"
import { now } from "../common.ts"

/** The form fields of a token request, as sent. */
export type TokenParams = Readonly<Record<string, string | undefined>>

const invalidGrant = (description: string) => refuse("invalid_grant", description)

/** A new access and refresh token for a grant, stored hashed; the answer of RFC 6749 section 5.1. */
const issueTokens = (grant: OAuthGrant) =>
  Effect.gen(function* () {
    const crypto = yield* Crypto
    const store = yield* OAuthStore
    const config = yield* HeraldConfig
    const at = yield* now
    const access = `${accessTokenPrefix(config.keyPrefix)}${yield* crypto.token()}`
    const refresh = `${refreshTokenPrefix(config.keyPrefix)}${yield* crypto.token()}`
    const base = { grantId: grant.id, createdAt: at, usedAt: null }
    yield* store.insertToken({
      ...base,
      hash: yield* crypto.sha256(access),
      kind: "access",
      expiresAt: at + ACCESS_TOKEN_LIFETIME_MS
    })
    yield* store.insertToken({
      ...base,
      hash: yield* crypto.sha256(refresh),
      kind: "refresh",
      expiresAt: at + REFRESH_TOKEN_LIFETIME_MS
    })
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      refresh_token: refresh,
      scope: grant.scope
    }
  })

/** RFC 8707: a resource named in a token request must be the one the grant is for. */
const checkResource = (params: TokenParams, resource: string) =>
  params.resource !== undefined && params.resource !== resource
    ? Effect.fail(refuse("invalid_target", `Herald issues tokens for ${resource} only.`))
    : Effect.void

const liveGrant = (id: string) =>
  Effect.flatMap(OAuthStore, (store) => store.findGrant(id)).pipe(
    Effect.flatMap((grant) =>
      Option.isSome(grant) && grant.value.revokedAt === null
        ? Effect.succeed(grant.value)
        : Effect.fail(invalidGrant("The connection was revoked."))
    )
  )

/** The authorization code grant with PKCE (S256): the code once, from the client it was issued to, with its verifier. */
const exchangeCode = (params: TokenParams) =>
  Effect.gen(function* () {
    const crypto = yield* Crypto
    const code = params.code ?? ""
    const found = yield* (yield* OAuthStore).consumeCode(yield* crypto.sha256(code), yield* now)
    if (Option.isNone(found)) return yield* Effect.fail(invalidGrant("The code is unknown, used or expired."))
    const issued = found.value
    if (params.client_id !== issued.clientId)
      return yield* Effect.fail(invalidGrant("The code was issued to another client."))
    if (params.redirect_uri !== issued.redirectUri)
      return yield* Effect.fail(invalidGrant("redirect_uri differs from the authorization request's."))
    const verifier = params.code_verifier ?? ""
    if (!isCodeVerifier(verifier) || hexToBase64Url(yield* crypto.sha256(verifier)) !== issued.codeChallenge)
      return yield* Effect.fail(invalidGrant("code_verifier does not match the code_challenge (PKCE, S256)."))
    yield* checkResource(params, issued.resource)
    return yield* issueTokens(yield* liveGrant(issued.grantId))
  })

/** Refresh with rotation: each refresh token works once; a second use means a copy leaked, so the grant ends. */
const refresh = (params: TokenParams) =>
  Effect.gen(function* () {
    const crypto = yield* Crypto
    const store = yield* OAuthStore
    const at = yield* now
    const hash = yield* crypto.sha256(params.refresh_token ?? "")
    const found = yield* store.findToken(hash)
    if (Option.isNone(found) || found.value.kind !== "refresh" || found.value.expiresAt <= at)
      return yield* Effect.fail(invalidGrant("The refresh token is unknown or expired."))
    const grant = yield* liveGrant(found.value.grantId)
    if (params.client_id !== grant.clientId)
      return yield* Effect.fail(invalidGrant("The refresh token was issued to another client."))
    yield* checkResource(params, grant.resource)
    if (found.value.usedAt !== null || !(yield* store.useRefreshToken(hash, at))) {
      yield* store.revokeGrant(grant.id, null, at)
      yield* (yield* readCache).forgetKeys
      return yield* Effect.fail(invalidGrant("The refresh token was used before; the connection is revoked."))
    }
    return yield* issueTokens(grant)
  })

/** The token endpoint (RFC 6749 section 3.2, OAuth 2.1): authorization_code and refresh_token grants. */
export const token = Effect.fn("oauthToken")(function* (params: TokenParams) {
  if (params.grant_type === "authorization_code") return yield* exchangeCode(params)
  if (params.grant_type === "refresh_token") return yield* refresh(params)
  return yield* Effect.fail(refuse("unsupported_grant_type", "grant_type must be authorization_code or refresh_token."))
})

/** RFC 7009: revoking either token ends the connection (its grant and every token of it); unknown tokens are fine. */
export const revokeToken = Effect.fn("oauthRevoke")(function* (params: TokenParams) {
  const store = yield* OAuthStore
  const found = yield* store.findToken(yield* (yield* Crypto).sha256(params.token ?? ""))
  if (Option.isNone(found)) return
  const grant = yield* store.findGrant(found.value.grantId)
  // A client may revoke only its own tokens (RFC 7009 section 2.1); others are ignored, as unknown ones are.
  if (Option.isSome(grant) && params.client_id !== undefined && params.client_id !== grant.value.clientId) return
  yield* store.revokeGrant(found.value.grantId, null, yield* now)
  yield* (yield* readCache).forgetKeys
})

const unauthorized = fail("unauthorized")

/**
 * An MCP request's access token to the actor it acts as: a key of the grant's workspace, named after the
 * grant (posts record it in createdBy), asks-first as the person chose. Bound to the MCP resource.
 */
export const authenticateAccessToken = Effect.fnUntraced(function* (text: string) {
  const config = yield* HeraldConfig
  if (!text.startsWith(accessTokenPrefix(config.keyPrefix))) return yield* Effect.fail(unauthorized)
  const cache = yield* readCache
  const at = yield* now
  // Through the read cache, like keys: a revocation made elsewhere is seen within its time-to-live.
  const found = yield* cache.oauthToken(yield* (yield* Crypto).sha256(text))
  if (Option.isNone(found)) return yield* Effect.fail(unauthorized)
  const { token: access, grant: maybeGrant } = found.value
  if (access.kind !== "access" || access.expiresAt <= at || Option.isNone(maybeGrant))
    return yield* Effect.fail(unauthorized)
  const grant = maybeGrant.value
  if (grant.revokedAt !== null || grant.resource !== mcpResource(config.publicUrl))
    return yield* Effect.fail(unauthorized)
  const workspace = yield* cachedWorkspace(grant.workspaceId)
  if (Option.isNone(workspace) || isExpiredUnclaimed(workspace.value, at)) return yield* Effect.fail(unauthorized)
  // "Last used" for the key list, as for keys: written on its own fiber, at most once an hour per grant and process.
  if (cache.useToRecord(grant.id, at)) yield* Effect.forkDetach((yield* OAuthStore).recordGrantUse(grant.id, at))
  const actor: Actor = {
    kind: "key",
    workspaceId: grant.workspaceId,
    keyId: grant.id,
    name: grant.name,
    requireApproval: grant.requireApproval
  }
  return actor
})
