import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import type { UpdateWorkspaceRequest } from "../../domain/contract/workspace.ts"
import { fail } from "../../domain/errors.ts"
import { checkName } from "../../domain/signup.ts"
import type { Workspace } from "../../domain/workspace.ts"
import { readCache } from "../readCache.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { fromResult, requirePerson } from "./common.ts"

const settingsView = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  plan: w.plan,
  ownerEmail: w.ownerEmail,
  locale: w.locale,
  timeZone: w.timeZone,
  approvalMail: w.approvalMail
})

const load = Effect.fnUntraced(function* (workspaceId: string) {
  const found = yield* (yield* WorkspaceRepo).findById(workspaceId)
  if (Option.isNone(found)) return yield* Effect.fail(fail("unauthorized"))
  return found.value
})

/** The workspace's settings, for its signed-in owner. */
export const getWorkspaceSettings = Effect.fn("getWorkspaceSettings")(function* (actor: Actor) {
  const person = yield* requirePerson(actor)
  return { workspace: settingsView(yield* load(person.workspaceId)) }
})

/** Changes the name, language, time zone or approval mail, from the decoded request (contract/workspace.ts); fields left out stay. */
export const updateWorkspaceSettings = Effect.fn("updateWorkspaceSettings")(function* (
  actor: Actor,
  body: typeof UpdateWorkspaceRequest.Type
) {
  const person = yield* requirePerson(actor)
  const name = yield* fromResult(checkName("name", body.name))
  const current = yield* load(person.workspaceId)
  const updated: Workspace = {
    ...current,
    name: name ?? current.name,
    locale: body.locale ?? current.locale,
    timeZone: body.timeZone ?? current.timeZone,
    approvalMail: body.approvalMail ?? current.approvalMail
  }
  yield* (yield* WorkspaceRepo).update(updated)
  yield* (yield* readCache).forgetWorkspace(updated.id)
  return { workspace: settingsView(updated) }
})
