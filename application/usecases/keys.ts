import { Effect } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import type { CreatedKey, CreateKeyRequest, Key } from "../../domain/contract/key.ts"
import { fail } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import { checkName } from "../../domain/signup.ts"
import { formatUtc } from "../../domain/time.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
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
  return { keys: (yield* (yield* ApiKeyRepo).listByWorkspace(person.workspaceId)).map(keyView) }
})

export const revokeKey = Effect.fn("revokeKey")(function* (actor: Actor, id: string) {
  const person = yield* requirePerson(actor)
  const revoked = isWellFormedId(id) && (yield* (yield* ApiKeyRepo).revoke(person.workspaceId, id, yield* now))
  yield* (yield* readCache).forgetKeys
  if (!revoked)
    return yield* Effect.fail(
      fail("validation_failed", { fields: ["id"] }, "No active key with this id in the workspace.")
    )
  return { id, revoked: true as const }
})
