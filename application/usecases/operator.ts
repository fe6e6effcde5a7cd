import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import { checkEmail, checkName } from "../../domain/signup.ts"
import type { Plan, Workspace } from "../../domain/workspace.ts"
import { Crypto } from "../ports/Crypto.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { authenticateSession } from "./auth.ts"
import { fromResult, now } from "./common.ts"
import { endSession, startSession } from "./sessions.ts"
import { issueSignInLink } from "./signin.ts"
import { mintKey } from "./signup.ts"

/*
 * What the operator CLI does for the people who run a server: no e-mail round trip, no rate
 * limits, because the caller already has the machine. Everything else goes through the same use
 * cases as HTTP.
 */

const loadWorkspace = Effect.fnUntraced(function* (id: string) {
  const found = yield* (yield* WorkspaceRepo).findById(id)
  if (Option.isNone(found)) return yield* Effect.fail(fail("workspace_not_found", { workspaceId: id }))
  return found.value
})

/** A claimed workspace for `email` (already the owner's, nothing to confirm). */
export const createWorkspaceAsOperator = Effect.fn("createWorkspaceAsOperator")(function* (input: {
  email: string
  name: string | undefined
  plan: string | undefined
}) {
  const email = yield* fromResult(checkEmail(input.email))
  const name = (yield* fromResult(checkName("name", input.name))) ?? "Workspace"
  const plan = input.plan ?? "free"
  if (plan !== "free" && plan !== "pro") return yield* Effect.fail(invalidFields(["plan"], "plan must be free or pro."))
  const workspace: Workspace = {
    id: yield* (yield* Crypto).id("ws"),
    name,
    ownerEmail: email,
    plan: plan satisfies Plan,
    claimed: true,
    locale: "en",
    timeZone: "UTC",
    approvalMail: "each",
    createdAt: yield* now,
    expiresAt: null
  }
  yield* (yield* WorkspaceRepo)
    .insert(workspace)
    .pipe(
      Effect.catchTag("EmailTaken", () =>
        Effect.fail(invalidFields(["email"], "That address already owns a workspace."))
      )
    )
  return workspace
})

/** A key for a workspace; asks-first only when asked for. Returns the secret text (shown once). */
export const createKeyAsOperator = Effect.fn("createKeyAsOperator")(function* (
  workspaceId: string,
  name: string | undefined,
  asksFirst: boolean
) {
  yield* loadWorkspace(workspaceId)
  const checked = (yield* fromResult(checkName("name", name))) ?? "API key"
  return yield* mintKey(workspaceId, checked, asksFirst)
})

/** Runs `f` as the workspace owner, signed in for just this call (the session ends after it). */
export const asOwner = <A, E, R>(workspaceId: string, f: (owner: Actor) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const workspace = yield* loadWorkspace(workspaceId)
    const session = yield* startSession(workspace.id, workspace.ownerEmail)
    const { actor } = yield* authenticateSession(session.token)
    return yield* f(actor).pipe(Effect.ensuring(endSession(session.token)))
  })

/** A sign-in link for the owner of the workspace at `email`, for servers without SMTP. */
export const signInLinkAsOperator = Effect.fn("signInLinkAsOperator")(function* (rawEmail: string) {
  const email = yield* fromResult(checkEmail(rawEmail))
  const workspace = yield* (yield* WorkspaceRepo).findByEmail(email)
  if (Option.isNone(workspace)) return yield* Effect.fail(fail("workspace_not_found", { email }))
  return yield* issueSignInLink(workspace.value)
})
