import { Effect } from "effect"
import type { Actor } from "../../../domain/apiKey.ts"
import { checkName } from "../../../domain/signup.ts"
import {
  CODE_LIFETIME_MS,
  isCodeChallenge,
  mcpResource,
  type OAuthClient,
  type OAuthGrant,
  type OAuthRefusal,
  redirectUriMatches,
  refuse,
  SCOPE
} from "../../../domain/oauth.ts"
import { HeraldConfig } from "../../config.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { OAuthStore } from "../../ports/OAuthStore.ts"
import { fromResult, now, requirePerson } from "../common.ts"
import { findClient } from "./clients.ts"

/** An authorization request that passed every check: what the consent page shows and the approval binds. */
export interface AuthorizationRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly resource: string
  readonly scope: string
  /** The request's parameters as received, carried through the consent form. */
  readonly params: Readonly<Record<string, string>>
}

/**
 * Why a request cannot go on: shown to the person when the client or its redirect URI is in doubt (an
 * error must never be sent to an unverified address), else sent back to the client's redirect URI.
 */
export type AuthorizationProblem =
  | { readonly _tag: "Show"; readonly refusal: OAuthRefusal }
  | { readonly _tag: "Redirect"; readonly url: string }

/** The client's redirect URI with the answer's parameters, `iss` included (RFC 9207). */
const answerUrl = (redirectUri: string, issuer: string, fields: Record<string, string | undefined>) => {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) url.searchParams.set(name, value)
  url.searchParams.set("iss", issuer)
  return url.toString()
}

/** Checks an authorization request (OAuth 2.1 section 4.1.1, PKCE S256, RFC 8707 resource). */
export const checkAuthorizationRequest = Effect.fn("checkAuthorizationRequest")(function* (
  params: Readonly<Record<string, string>>
) {
  const config = yield* HeraldConfig
  const show = (refusal: OAuthRefusal): AuthorizationProblem => ({ _tag: "Show", refusal })
  const client = yield* Effect.mapError(findClient(params.client_id ?? ""), show)
  const redirectUri = params.redirect_uri ?? ""
  if (!redirectUriMatches(client.redirectUris, redirectUri))
    return yield* Effect.fail(
      show(refuse("invalid_request", "redirect_uri is not one of the URIs this client registered."))
    )
  const back = (error: string, description: string): AuthorizationProblem => ({
    _tag: "Redirect",
    url: answerUrl(redirectUri, config.publicUrl, { error, error_description: description, state: params.state })
  })
  if (params.response_type !== "code")
    return yield* Effect.fail(back("unsupported_response_type", 'response_type must be "code".'))
  if (params.code_challenge_method !== "S256" || !isCodeChallenge(params.code_challenge ?? ""))
    return yield* Effect.fail(
      back("invalid_request", "PKCE is required: code_challenge with code_challenge_method S256.")
    )
  const resource = mcpResource(config.publicUrl)
  if (params.resource !== undefined && params.resource !== resource)
    return yield* Effect.fail(back("invalid_target", `Herald grants access to ${resource} only.`))
  // offline_access (OpenID's word for refresh tokens) is granted anyway; any other scope is not Herald's.
  const asked = (params.scope ?? SCOPE).split(" ").filter((s) => s !== "" && s !== "offline_access")
  if (asked.some((s) => s !== SCOPE)) return yield* Effect.fail(back("invalid_scope", `The one scope is "${SCOPE}".`))
  const request: AuthorizationRequest = {
    client,
    redirectUri,
    state: params.state,
    codeChallenge: params.code_challenge!,
    resource,
    scope: SCOPE,
    params
  }
  return request
})

/** The person's choice on the consent page. */
export interface Consent {
  readonly requireApproval: boolean
  /** Their name for the connection; the client's name when left empty. */
  readonly name: string | undefined
}

/** The person consents: a grant for their workspace and a single-use code, sent to the client's redirect URI. */
export const approveAuthorization = Effect.fn("approveAuthorization")(function* (
  actor: Actor,
  request: AuthorizationRequest,
  consent: Consent
) {
  const person = yield* requirePerson(actor)
  const crypto = yield* Crypto
  const store = yield* OAuthStore
  const config = yield* HeraldConfig
  const at = yield* now
  const name = (yield* fromResult(checkName("name", consent.name))) ?? request.client.name
  const grant: OAuthGrant = {
    id: yield* crypto.id("grt"),
    workspaceId: person.workspaceId,
    clientId: request.client.id,
    clientName: request.client.name,
    name,
    resource: request.resource,
    scope: request.scope,
    requireApproval: consent.requireApproval,
    createdAt: at,
    revokedAt: null,
    lastUsedAt: null
  }
  yield* store.insertGrant(grant)
  const code = yield* crypto.token()
  yield* store.insertCode({
    hash: yield* crypto.sha256(code),
    grantId: grant.id,
    clientId: request.client.id,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    expiresAt: at + CODE_LIFETIME_MS
  })
  return { grant, redirect: answerUrl(request.redirectUri, config.publicUrl, { code, state: request.state }) }
})

/** The person declines: the client hears access_denied. */
export const denyAuthorization = (request: AuthorizationRequest) =>
  Effect.map(HeraldConfig, (config) =>
    answerUrl(request.redirectUri, config.publicUrl, {
      error: "access_denied",
      error_description: "The person declined.",
      state: request.state
    })
  )
