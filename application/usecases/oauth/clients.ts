import { Effect, Exit, Option, Schema } from "effect"
import {
  CLIENT_DOCUMENT_TTL_MS,
  checkClientMetadata,
  claimedName,
  ClientMetadata,
  clientDocumentUrlProblem,
  type OAuthClient,
  OAuthRefusal,
  REGISTRATIONS_PER_HOUR,
  refuse
} from "../../../domain/oauth.ts"
import { ClientDocuments } from "../../ports/ClientDocuments.ts"
import { Crypto } from "../../ports/Crypto.ts"
import { OAuthStore } from "../../ports/OAuthStore.ts"
import { RateLimiter } from "../../ports/RateLimiter.ts"
import { now } from "../common.ts"

const decodeMetadata = Schema.decodeUnknownExit(ClientMetadata)

const metadataOf = (body: unknown) => {
  const decoded = decodeMetadata(body)
  return Exit.isSuccess(decoded)
    ? Effect.succeed(decoded.value)
    : Effect.fail(refuse("invalid_client_metadata", "The client metadata is not a JSON object with redirect_uris."))
}

/** RFC 7591: registers a public client from its metadata; the answer repeats what was registered. */
export const registerClient = Effect.fn("registerClient")(function* (body: unknown, client: string) {
  const limit = yield* (yield* RateLimiter).hit(
    `oauth-register:${client}`,
    REGISTRATIONS_PER_HOUR,
    60 * 60 * 1000,
    yield* now
  )
  if (!limit.allowed)
    return yield* Effect.fail(
      new OAuthRefusal({
        error: "rate_limited",
        description: `At most ${REGISTRATIONS_PER_HOUR} registrations an hour from one address.`,
        retryAfterSeconds: Math.ceil(limit.retryAfterMs / 1000)
      })
    )
  const metadata = yield* metadataOf(body)
  const problem = checkClientMetadata(metadata)
  if (problem !== null) return yield* Effect.fail(problem)
  const at = yield* now
  const registered: OAuthClient = {
    id: yield* (yield* Crypto).id("cli"),
    kind: "registered",
    name: claimedName(metadata.client_name, "Unnamed client"),
    uri: metadata.client_uri ?? null,
    redirectUris: metadata.redirect_uris,
    createdAt: at,
    fetchedAt: at
  }
  yield* (yield* OAuthStore).saveClient(registered)
  return {
    client_id: registered.id,
    client_id_issued_at: Math.floor(at / 1000),
    client_name: registered.name,
    ...(registered.uri === null ? {} : { client_uri: registered.uri }),
    redirect_uris: registered.redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none"
  }
})

/** Reads a Client ID Metadata Document: its client_id must be its own URL, its metadata sound. */
const fetchDocumentClient = (url: string, at: number) =>
  Effect.gen(function* () {
    const body = yield* (yield* ClientDocuments)
      .fetch(url)
      .pipe(Effect.mapError((e) => refuse("invalid_client", `The client's metadata document: ${e.reason}`)))
    const metadata = yield* metadataOf(body)
    if (metadata.client_id !== url)
      return yield* Effect.fail(refuse("invalid_client", "The client's metadata document names another client_id."))
    const problem = checkClientMetadata(metadata)
    if (problem !== null) return yield* Effect.fail(refuse("invalid_client", problem.description))
    const client: OAuthClient = {
      id: url,
      kind: "document",
      name: claimedName(metadata.client_name, new URL(url).host),
      uri: metadata.client_uri ?? null,
      redirectUris: metadata.redirect_uris,
      createdAt: at,
      fetchedAt: at
    }
    yield* (yield* OAuthStore).saveClient(client)
    return client
  })

/**
 * The client a client_id names: a registered one, or the document at the URL it is, read again once
 * CLIENT_DOCUMENT_TTL_MS old (the stored copy is the cache every HTTP host shares).
 */
export const findClient = Effect.fn("findClient")(function* (clientId: string) {
  const store = yield* OAuthStore
  const at = yield* now
  if (clientId.startsWith("cli_")) {
    const found = yield* store.findClient(clientId)
    if (Option.isNone(found))
      return yield* Effect.fail(refuse("invalid_client", "No client is registered with this client_id."))
    return found.value
  }
  const problem = clientDocumentUrlProblem(clientId, (yield* ClientDocuments).allowsLoopback)
  if (problem !== null) return yield* Effect.fail(refuse("invalid_client", problem))
  const cached = yield* store.findClient(clientId)
  if (Option.isSome(cached) && cached.value.fetchedAt > at - CLIENT_DOCUMENT_TTL_MS) return cached.value
  return yield* fetchDocumentClient(clientId, at)
})
