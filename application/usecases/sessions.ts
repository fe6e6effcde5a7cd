import { Effect } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { invalidFields } from "../../domain/errors.ts"
import { DAY_MS, formatUtc } from "../../domain/time.ts"
import { Crypto } from "../ports/Crypto.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import type { SessionData } from "./auth.ts"
import { now, requirePerson } from "./common.ts"

export const SESSION_LIFETIME_MS = 30 * DAY_MS

export interface StartedSession {
  readonly token: string
  readonly csrf: string
  readonly expiresAt: number
}

/** The id a person acts under: from their address, so every session (and an e-mailed approval) of one person is the same person. */
export const personIdOf = (email: string) =>
  Effect.flatMap(Crypto, (crypto) => Effect.map(crypto.sha256(email), (hash) => `usr_${hash.slice(0, 20)}`))

/** Signs a person in: a session token (stored hashed) and its CSRF secret. */
export const startSession = Effect.fn("startSession")(function* (workspaceId: string, email: string) {
  const crypto = yield* Crypto
  const token = yield* crypto.token()
  const csrf = yield* crypto.token()
  const personId = yield* personIdOf(email)
  const at = yield* now
  const data: SessionData = { personId, name: email, csrf }
  const expiresAt = at + SESSION_LIFETIME_MS
  yield* (yield* TokenRepo).insert({
    hash: yield* crypto.sha256(token),
    kind: "session",
    workspaceId,
    email,
    data: JSON.stringify(data),
    createdAt: at,
    expiresAt
  })
  const session: StartedSession = { token, csrf, expiresAt }
  return session
})

export const endSession = Effect.fn("endSession")(function* (token: string) {
  const crypto = yield* Crypto
  yield* (yield* TokenRepo).delete(yield* crypto.sha256(token))
})

/** A session's public id: the start of its hash (the hash of a secret, so it gives nothing away). */
const sessionId = (hash: string) => `ses_${hash.slice(0, 24)}`

/** The person's sessions (where they are signed in), the current one marked. */
export const listSessions = Effect.fn("listSessions")(function* (actor: Actor, currentToken: string) {
  const person = yield* requirePerson(actor)
  const current = yield* (yield* Crypto).sha256(currentToken)
  const sessions = yield* (yield* TokenRepo).listFor(person.workspaceId, person.email, "session", yield* now)
  return {
    sessions: sessions.map((s) => ({
      id: sessionId(s.hash),
      createdAt: formatUtc(s.createdAt),
      expiresAt: formatUtc(s.expiresAt),
      current: s.hash === current
    }))
  }
})

/** Ends one of the person's sessions (signs out another browser). */
export const revokeSession = Effect.fn("revokeSession")(function* (actor: Actor, id: string) {
  const person = yield* requirePerson(actor)
  const tokens = yield* TokenRepo
  const found = (yield* tokens.listFor(person.workspaceId, person.email, "session", yield* now)).find(
    (s) => sessionId(s.hash) === id
  )
  if (found === undefined) return yield* Effect.fail(invalidFields(["id"], "No session of yours with this id."))
  yield* tokens.delete(found.hash)
  return { id, revoked: true as const }
})
