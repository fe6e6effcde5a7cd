import { Effect, Option } from "effect"
import { fail } from "../../domain/errors.ts"
import { signInMail } from "../../domain/messages.ts"
import { checkEmail } from "../../domain/signup.ts"
import { isExpiredUnclaimed, type Workspace } from "../../domain/workspace.ts"
import { HeraldConfig } from "../config.ts"
import { Crypto } from "../ports/Crypto.ts"
import { RateLimiter } from "../ports/RateLimiter.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { fromResult, now, rateLimited } from "./common.ts"
import { trySend } from "./mail.ts"
import { markClaimed } from "./claim.ts"
import { startSession } from "./sessions.ts"

const SIGNIN_LINK_LIFETIME_MS = 60 * 60 * 1000

/** A single-use sign-in link for the workspace owner. */
export const issueSignInLink = Effect.fn("issueSignInLink")(function* (workspace: Workspace) {
  const crypto = yield* Crypto
  const config = yield* HeraldConfig
  const at = yield* now
  const token = yield* crypto.token()
  yield* (yield* TokenRepo).insert({
    hash: yield* crypto.sha256(token),
    kind: "signin",
    workspaceId: workspace.id,
    email: workspace.ownerEmail,
    data: null,
    createdAt: at,
    expiresAt: at + SIGNIN_LINK_LIFETIME_MS
  })
  // The page it opens speaks the workspace's language (the link carries it: the token is only spent by the POST).
  return `${config.publicUrl}/signin/complete?token=${token}&lang=${workspace.locale}`
})

/** Looks the address up and, when it owns a workspace, e-mails it a sign-in link. */
const sendSignInLink = (email: string) =>
  Effect.gen(function* () {
    const workspace = yield* (yield* WorkspaceRepo).findByEmail(email)
    if (Option.isNone(workspace)) return
    const link = yield* issueSignInLink(workspace.value)
    yield* trySend(email, signInMail(workspace.value.locale, { link }))
  }).pipe(Effect.catchCause((cause) => Effect.logError("A sign-in link could not be sent", cause)))

/**
 * E-mails a sign-in link when the address owns a workspace. The answer is the same either way,
 * and so is its timing: the answer takes the same steps for every address (check, rate limit), and
 * the lookup, the link and the mail happen after it, on their own fiber.
 */
export const requestSignInLink = Effect.fn("requestSignInLink")(function* (rawEmail: string) {
  const email = yield* fromResult(checkEmail(rawEmail))
  const config = yield* HeraldConfig
  const limit = yield* (yield* RateLimiter).hit(
    `signin:email:${email}`,
    config.limits.signinLinksPerEmailPerHour,
    60 * 60 * 1000,
    yield* now
  )
  if (!limit.allowed) return yield* Effect.fail(rateLimited(limit.retryAfterMs))
  yield* Effect.forkDetach(sendSignInLink(email))
  return { sent: true }
})

/**
 * Uses a sign-in link: starts a session. The link went to the owner's mailbox, the same proof as the
 * claim link, so signing in to an unclaimed workspace claims it (README "Security"): no session ever
 * approves for a workspace that is still to be deleted 7 days after sign-up.
 */
export const completeSignIn = Effect.fn("completeSignIn")(function* (token: string) {
  const crypto = yield* Crypto
  const at = yield* now
  const found = yield* (yield* TokenRepo).consume(yield* crypto.sha256(token), "signin", at)
  if (Option.isNone(found)) return yield* Effect.fail(fail("signin_link_invalid"))
  const stored = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(stored) || isExpiredUnclaimed(stored.value, at))
    return yield* Effect.fail(fail("signin_link_invalid"))
  const workspace = stored.value.claimed ? stored.value : yield* markClaimed(stored.value, null, at)
  return { workspace, session: yield* startSession(workspace.id, workspace.ownerEmail) }
})
