import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { isExpiredUnclaimed } from "../../domain/workspace.ts"
import { HeraldConfig } from "../config.ts"
import { readCache } from "../readCache.ts"
import { Crypto } from "../ports/Crypto.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { now } from "./common.ts"

const unauthorized = fail("unauthorized")

/** Session data kept with a session token. */
export interface SessionData {
  readonly personId: string
  readonly name: string
  readonly csrf: string
}

/** Resolves `Authorization: Bearer <key>` to the key's actor. Untraced: it runs on every request, and Effect.fn's call-site capture cost ~4 µs a call. */
export const authenticateKey = Effect.fnUntraced(function* (keyText: string) {
  const config = yield* HeraldConfig
  const crypto = yield* Crypto
  if (!keyText.startsWith(`${config.keyPrefix}_`)) return yield* Effect.fail(unauthorized)
  const cache = yield* readCache
  const hash = yield* crypto.sha256(keyText)
  const found = yield* cache.apiKey(hash)
  if (Option.isNone(found) || found.value.revokedAt !== null) return yield* Effect.fail(unauthorized)
  const key = found.value
  const workspace = yield* cachedWorkspace(key.workspaceId)
  const at = yield* now
  if (Option.isNone(workspace) || isExpiredUnclaimed(workspace.value, at)) return yield* Effect.fail(unauthorized)
  // "Last used" for the key list: written on its own fiber, at most once an hour per key and process.
  if (cache.useToRecord(key.id, at)) yield* Effect.forkDetach((yield* ApiKeyRepo).recordUse(key.id, at))
  const actor: Actor = {
    kind: "key",
    workspaceId: key.workspaceId,
    keyId: key.id,
    name: key.name,
    requireApproval: key.requireApproval
  }
  return actor
})

/** Resolves a session cookie to the signed-in person, with the session's CSRF secret. */
export const authenticateSession = Effect.fn("authenticateSession")(function* (sessionToken: string) {
  const crypto = yield* Crypto
  const found = yield* (yield* TokenRepo).find(yield* crypto.sha256(sessionToken), "session", yield* now)
  if (Option.isNone(found) || found.value.data === null) return yield* Effect.fail(unauthorized)
  const session = found.value
  const data = JSON.parse(session.data!) as SessionData
  const actor: Actor = {
    kind: "person",
    workspaceId: session.workspaceId,
    personId: data.personId,
    name: data.name,
    email: session.email
  }
  return { actor, csrf: data.csrf }
})

/** The workspace record, through the per-process read cache. */
export const cachedWorkspace = (id: string) => Effect.flatMap(readCache, (cache) => cache.workspace(id))
