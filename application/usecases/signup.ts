import { Effect, Option } from "effect"
import type { ApiKey } from "../../domain/apiKey.ts"
import type { SignUpRequest } from "../../domain/contract/signup.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import {
  claimMail,
  deliveryFailedSentence,
  deliverySentence,
  existingWorkspaceMail,
  signupNextSteps
} from "../../domain/messages.ts"
import { checkEmail, checkName, chooseLocale, maskEmail } from "../../domain/signup.ts"
import { DAY_MS, formatUtc } from "../../domain/time.ts"
import { CLAIM_LINK_LIFETIME_MS, UNCLAIMED_LIFETIME_MS, type Workspace } from "../../domain/workspace.ts"
import { HeraldConfig } from "../config.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { Crypto } from "../ports/Crypto.ts"
import { RateLimiter } from "../ports/RateLimiter.ts"
import { Store } from "../ports/Store.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { fromResult, now, rateLimited } from "./common.ts"
import { trySend } from "./mail.ts"
import { issueSignInLink } from "./signin.ts"
import { isKnownZone } from "../../domain/zonedTime.ts"

export interface SignUpInput {
  /** Decoded by the caller through the contract's SignUpRequest (REST payload, MCP arguments). */
  readonly body: typeof SignUpRequest.Type
  /** The caller's network address, for the per-address rate limit. */
  readonly ip: string
  readonly acceptLanguage?: string | undefined
}

export const HOUR_MS = 60 * 60 * 1000

/** Makes an API key: the secret text (shown once) and the record (hash and prefix only). */
export const mintKey = Effect.fn("mintKey")(function* (workspaceId: string, name: string, requireApproval: boolean) {
  const crypto = yield* Crypto
  const config = yield* HeraldConfig
  const secret = yield* crypto.token()
  const text = `${config.keyPrefix}_${secret}`
  const key: ApiKey = {
    id: yield* crypto.id("key"),
    workspaceId,
    name,
    prefix: secret.slice(0, 8),
    hash: yield* crypto.sha256(text),
    requireApproval,
    createdAt: yield* now,
    revokedAt: null,
    lastUsedAt: null
  }
  yield* (yield* ApiKeyRepo).insert(key)
  return { text, key }
})

/** A fresh single-use claim link for an unclaimed workspace; earlier links stop working. */
export const issueClaimLink = Effect.fn("issueClaimLink")(function* (workspace: Workspace) {
  const crypto = yield* Crypto
  const tokens = yield* TokenRepo
  const config = yield* HeraldConfig
  const at = yield* now
  const token = yield* crypto.token()
  const expiresAt = Math.min(at + CLAIM_LINK_LIFETIME_MS, workspace.expiresAt ?? Number.MAX_SAFE_INTEGER)
  yield* tokens.deleteKind(workspace.id, "claim")
  yield* tokens.insert({
    hash: yield* crypto.sha256(token),
    kind: "claim",
    workspaceId: workspace.id,
    email: workspace.ownerEmail,
    data: null,
    createdAt: at,
    expiresAt
  })
  return { link: `${config.publicUrl}/claim?token=${token}`, expiresAt }
})

export const signUp = Effect.fn("signUp")(function* (input: SignUpInput) {
  const config = yield* HeraldConfig
  if (!config.signupEnabled) return yield* Effect.fail(fail("agent_signup_closed"))
  const body = input.body
  if (body.email.trim() === "") return yield* Effect.fail(invalidFields(["email"], "email is required."))
  const email = yield* fromResult(checkEmail(body.email))
  const workspaceName = yield* fromResult(checkName("workspaceName", body.workspaceName))
  const agentName = yield* fromResult(checkName("agentName", body.agentName))
  const locale = yield* fromResult(chooseLocale(body.locale, input.acceptLanguage))
  const timeZone = body.timeZone ?? "UTC"
  if (!isKnownZone(timeZone))
    return yield* Effect.fail(fail("unknown_time_zone", { fields: ["timeZone"], timeZone: timeZone.slice(0, 64) }))

  const limiter = yield* RateLimiter
  const at = yield* now
  const byIp = yield* limiter.hit(`signup:ip:${input.ip}`, config.limits.signupPerIpPerHour, HOUR_MS, at)
  if (!byIp.allowed) return yield* Effect.fail(rateLimited(byIp.retryAfterMs))
  const byEmail = yield* limiter.hit(`signup:email:${email}`, config.limits.signupPerEmailPerDay, DAY_MS, at)
  if (!byEmail.allowed) return yield* Effect.fail(rateLimited(byEmail.retryAfterMs))

  const workspaces = yield* WorkspaceRepo
  const existing = yield* workspaces.findByEmail(email)
  if (Option.isSome(existing)) return yield* existingOwner(existing.value, agentName ?? "An AI agent", locale)

  const capacity = yield* limiter.hit("signup:capacity", config.limits.signupsPerDay, DAY_MS, at)
  if (!capacity.allowed)
    return yield* Effect.fail(fail("signup_capacity", { retryAfterSeconds: Math.ceil(capacity.retryAfterMs / 1000) }))

  const crypto = yield* Crypto
  const workspace: Workspace = {
    id: yield* crypto.id("ws"),
    name: workspaceName ?? `${email.slice(0, email.indexOf("@"))}'s workspace`,
    ownerEmail: email,
    plan: "free",
    claimed: false,
    locale,
    timeZone,
    approvalMail: "each",
    createdAt: at,
    expiresAt: at + UNCLAIMED_LIFETIME_MS
  }
  const keyName = agentName ?? "AI agent"
  const created = yield* (yield* Store)
    .transaction(
      Effect.gen(function* () {
        yield* workspaces.insert(workspace)
        const key = yield* mintKey(workspace.id, keyName, true)
        const claim = yield* issueClaimLink(workspace)
        return { key, claim }
      })
    )
    .pipe(
      Effect.map(Option.some),
      Effect.catchTag("EmailTaken", () => Effect.succeed(Option.none()))
    )
  // Lost a race with a concurrent sign-up for the same address: answer as for an existing owner.
  if (Option.isNone(created)) {
    const winner = yield* workspaces.findByEmail(email)
    if (Option.isSome(winner)) return yield* existingOwner(winner.value, keyName, locale)
    return yield* Effect.die(new Error("workspace vanished after EmailTaken"))
  }
  const { key, claim } = created.value
  const claimExpiresAt = formatUtc(claim.expiresAt)
  const sent = yield* trySend(
    email,
    claimMail(locale, {
      workspaceName: workspace.name,
      agentName: keyName,
      link: claim.link,
      expiresAt: claimExpiresAt
    })
  )
  return {
    status: 201 as const,
    body: {
      workspace: {
        id: workspace.id,
        name: workspace.name,
        plan: workspace.plan,
        claimed: false,
        expiresAt: formatUtc(workspace.expiresAt!)
      },
      apiKey: key.text,
      key: { id: key.key.id, name: key.key.name, prefix: key.key.prefix, requireApproval: true },
      claimSent: sent,
      claimExpiresAt,
      next: signupNextSteps(false),
      delivery: sent ? deliverySentence(locale, maskEmail(email), false) : deliveryFailedSentence(locale, "claim-link")
    }
  }
})

/** 202: the address already owns a workspace. Nothing is created; the owner gets a sign-in link. */
const existingOwner = Effect.fnUntraced(function* (workspace: Workspace, agentName: string, locale: "en" | "ja") {
  const link = yield* issueSignInLink(workspace)
  const sent = yield* trySend(workspace.ownerEmail, existingWorkspaceMail(locale, { agentName, link }))
  return {
    status: 202 as const,
    body: {
      workspace: null,
      apiKey: null,
      key: null,
      claimSent: false,
      claimExpiresAt: null,
      next: signupNextSteps(true),
      delivery: sent
        ? deliverySentence(locale, maskEmail(workspace.ownerEmail), true)
        : deliveryFailedSentence(locale, "later")
    }
  }
})

export type SignUpResult = Effect.Success<ReturnType<typeof signUp>>
