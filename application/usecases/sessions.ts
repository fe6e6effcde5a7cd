import { Effect } from "effect"
import { DAY_MS } from "../../domain/time.ts"
import { Crypto } from "../ports/Crypto.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import type { SessionData } from "./auth.ts"
import { now } from "./common.ts"

export const SESSION_LIFETIME_MS = 30 * DAY_MS

export interface StartedSession {
  readonly token: string
  readonly csrf: string
  readonly expiresAt: number
}

/** Signs a person in: a session token (stored hashed) and its CSRF secret. */
export const startSession = Effect.fn("startSession")(function* (workspaceId: string, email: string) {
  const crypto = yield* Crypto
  const token = yield* crypto.token()
  const csrf = yield* crypto.token()
  const personId = `usr_${(yield* crypto.sha256(email)).slice(0, 20)}`
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
