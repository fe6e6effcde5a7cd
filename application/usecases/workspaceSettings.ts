import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import { checkName } from "../../domain/signup.ts"
import { type ApprovalMail, approvalMailChoices, isTimeZone, type Locale, type Workspace } from "../../domain/workspace.ts"
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

/** Changes the name, language (en, ja), time zone (IANA) or approval mail (each, digest, off); fields left out stay. */
export const updateWorkspaceSettings = Effect.fn("updateWorkspaceSettings")(function* (actor: Actor, raw: unknown) {
  const person = yield* requirePerson(actor)
  const body = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {}
  const bad: Array<string> = []
  const name = yield* fromResult(checkName("name", body.name))
  if (body.locale !== undefined && body.locale !== "en" && body.locale !== "ja") bad.push("locale")
  if (body.timeZone !== undefined && (typeof body.timeZone !== "string" || !isTimeZone(body.timeZone))) bad.push("timeZone")
  if (body.approvalMail !== undefined && !approvalMailChoices.includes(body.approvalMail as ApprovalMail)) bad.push("approvalMail")
  if (bad.length > 0) return yield* Effect.fail(invalidFields(bad, "locale is en or ja; timeZone an IANA name such as Asia/Tokyo; approvalMail each, digest or off."))
  const current = yield* load(person.workspaceId)
  const updated: Workspace = {
    ...current,
    name: name ?? current.name,
    locale: (body.locale as Locale | undefined) ?? current.locale,
    timeZone: (body.timeZone as string | undefined) ?? current.timeZone,
    approvalMail: (body.approvalMail as ApprovalMail | undefined) ?? current.approvalMail
  }
  yield* (yield* WorkspaceRepo).update(updated)
  yield* (yield* readCache).forgetWorkspace(updated.id)
  return { workspace: settingsView(updated) }
})
