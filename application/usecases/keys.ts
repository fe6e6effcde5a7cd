import { Effect } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import type { Connection, CreatedKey, CreateKeyRequest, Key } from "../../domain/contract/key.ts"
import type { OAuthGrant } from "../../domain/oauth.ts"
import { fail } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import { checkName } from "../../domain/signup.ts"
import { formatUtc } from "../../domain/time.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { OAuthStore } from "../ports/OAuthStore.ts"
import { readCache } from "../readCache.ts"
import { fromResult, now, requireClaimed, requirePerson } from "./common.ts"
import { mintKey } from "./signup.ts"

const keyView = (k: {
  id: string
  name: string
  prefix: string
  requireApproval: boolean
  createdAt: number
  revokedAt: number | null
  lastUsedAt: number | null
}): Key => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  requireApproval: k.requireApproval,
  createdAt: formatUtc(k.createdAt),
  revokedAt: k.revokedAt === null ? null : formatUtc(k.revokedAt),
  lastUsedAt: k.lastUsedAt === null ? null : formatUtc(k.lastUsedAt)
})

const connectionView = (g: OAuthGrant): Connection => ({
  id: g.id,
  name: g.name,
  clientId: g.clientId,
  clientName: g.clientName,
  requireApproval: g.requireApproval,
  createdAt: formatUtc(g.createdAt),
  revokedAt: g.revokedAt === null ? null : formatUtc(g.revokedAt),
  lastUsedAt: g.lastUsedAt === null ? null : formatUtc(g.lastUsedAt)
})

/** A person creates a key (for an agent, or for their own scripts) from the decoded request. */
export const createKey = Effect.fn("createKey")(function* (actor: Actor, body: typeof CreateKeyRequest.Type) {
  const person = yield* requirePerson(actor)
  yield* requireClaimed(person.workspaceId)
  const name = (yield* fromResult(checkName("name", body.name))) ?? "API key"
  const { text, key } = yield* mintKey(person.workspaceId, name, body.requireApproval !== false)
  return { apiKey: text, key: keyView(key) } satisfies CreatedKey
})

export const listKeys = Effect.fn("listKeys")(function* (actor: Actor) {
  const person = yield* requirePerson(actor)
  return {
    keys: (yield* (yield* ApiKeyRepo).listByWorkspace(person.workspaceId)).map(keyView),
    connections: (yield* (yield* OAuthStore).listGrants(person.workspaceId)).map(connectionView)
  }
})

export const revokeKey = Effect.fn("revokeKey")(function* (actor: Actor, id: string) {
  const person = yield* requirePerson(actor)
  // An MCP connection (grt_...) is revoked like a key: its grant ends and its tokens are deleted.
  const revoked =
    isWellFormedId(id) &&
    (id.startsWith("grt_")
      ? yield* (yield* OAuthStore).revokeGrant(id, person.workspaceId, yield* now)
      : yield* (yield* ApiKeyRepo).revoke(person.workspaceId, id, yield* now))
  yield* (yield* readCache).forgetKeys
  if (!revoked)
    return yield* Effect.fail(
      fail("validation_failed", { fields: ["id"] }, "No active key with this id in the workspace.")
    )
  return { id, revoked: true as const }
})
