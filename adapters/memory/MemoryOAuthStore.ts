import { Effect, Layer, Option } from "effect"
import { OAuthStore, type OAuthStoreShape } from "../../application/ports/OAuthStore.ts"
import { KEY_USE_RESOLUTION_MS } from "../../domain/apiKey.ts"
import type { AuthorizationCode, OAuthClient, OAuthGrant, OAuthToken } from "../../domain/oauth.ts"

export const make = Effect.sync(() => {
  const clients = new Map<string, OAuthClient>()
  const grants = new Map<string, OAuthGrant>()
  const codes = new Map<string, AuthorizationCode>()
  const tokens = new Map<string, OAuthToken>()
  return {
    saveClient: (client) => Effect.sync(() => void clients.set(client.id, client)),
    findClient: (id) => Effect.sync(() => Option.fromNullishOr(clients.get(id))),
    insertGrant: (grant) => Effect.sync(() => void grants.set(grant.id, grant)),
    findGrant: (id) => Effect.sync(() => Option.fromNullishOr(grants.get(id))),
    listGrants: (workspaceId) =>
      Effect.sync(() =>
        [...grants.values()].filter((g) => g.workspaceId === workspaceId).sort((a, b) => a.createdAt - b.createdAt)
      ),
    revokeGrant: (id, workspaceId, now) =>
      Effect.sync(() => {
        const grant = grants.get(id)
        if (!grant || grant.revokedAt !== null || (workspaceId !== null && grant.workspaceId !== workspaceId))
          return false
        grants.set(id, { ...grant, revokedAt: now })
        for (const [hash, token] of tokens) if (token.grantId === id) tokens.delete(hash)
        return true
      }),
    recordGrantUse: (id, at) =>
      Effect.sync(() => {
        const grant = grants.get(id)
        if (grant && (grant.lastUsedAt === null || grant.lastUsedAt <= at - KEY_USE_RESOLUTION_MS))
          grants.set(id, { ...grant, lastUsedAt: at })
      }),
    insertCode: (code) => Effect.sync(() => void codes.set(code.hash, code)),
    consumeCode: (hash, now) =>
      Effect.sync(() => {
        const code = codes.get(hash)
        codes.delete(hash)
        return Option.fromNullishOr(code !== undefined && code.expiresAt > now ? code : undefined)
      }),
    insertToken: (token) => Effect.sync(() => void tokens.set(token.hash, token)),
    findToken: (hash) => Effect.sync(() => Option.fromNullishOr(tokens.get(hash))),
    useRefreshToken: (hash, now) =>
      Effect.sync(() => {
        const token = tokens.get(hash)
        if (token?.kind !== "refresh" || token.usedAt !== null) return false
        tokens.set(hash, { ...token, usedAt: now })
        return true
      }),
    sweep: (now, limit) =>
      Effect.sync(() => {
        let gone = 0
        for (const map of [codes, tokens] as const) {
          let here = 0
          for (const [hash, entry] of map)
            if (entry.expiresAt <= now && here < limit) {
              map.delete(hash)
              here++
            }
          gone += here
        }
        return gone
      })
  } satisfies OAuthStoreShape
})

export const layer = Layer.effect(OAuthStore)(make)
