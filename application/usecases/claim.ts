import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { claimMail, deliveryFailedSentence, deliverySentence } from "../../domain/messages.ts"
import { maskEmail } from "../../domain/signup.ts"
import { formatUtc } from "../../domain/time.ts"
import { claim, isExpiredUnclaimed, type Locale, type Workspace } from "../../domain/workspace.ts"
import { HeraldConfig } from "../config.ts"
import { readCache } from "../readCache.ts"
import { ApiKeyRepo } from "../ports/ApiKeyRepo.ts"
import { Crypto } from "../ports/Crypto.ts"
import { RateLimiter } from "../ports/RateLimiter.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { WorkspaceRepo } from "../ports/WorkspaceRepo.ts"
import { now, rateLimited } from "./common.ts"
import { trySend } from "./mail.ts"
import { startSession } from "./sessions.ts"
import { Store } from "../ports/Store.ts"
import { emit, workspaceEvent } from "./webhooks/events.ts"
import { HOUR_MS, issueClaimLink } from "./signup.ts"

/**
 * POST /claim-link: the workspace's own key (the agent) asks for a fresh claim e-mail to the owner's
 * address on file. The link goes only to that inbox; earlier links stop working.
 */
export const requestClaimLink = Effect.fn("requestClaimLink")(function* (actor: Actor) {
  const workspaces = yield* WorkspaceRepo
  const found = yield* workspaces.findById(actor.workspaceId)
  if (Option.isNone(found)) return yield* Effect.fail(fail("workspace_not_found"))
  const workspace = found.value
  if (workspace.claimed) return yield* Effect.fail(fail("already_claimed"))
  const config = yield* HeraldConfig
  const limit = yield* (yield* RateLimiter).hit(
    `claim:ws:${workspace.id}`,
    config.limits.claimLinksPerWorkspacePerHour,
    HOUR_MS,
    yield* now
  )
  if (!limit.allowed) return yield* Effect.fail(rateLimited(limit.retryAfterMs))
  const link = yield* issueClaimLink(workspace)
  const keys = yield* (yield* ApiKeyRepo).listByWorkspace(workspace.id)
  const agentName = actor.kind === "key" ? actor.name : (keys[0]?.name ?? "An AI agent")
  const claimExpiresAt = formatUtc(link.expiresAt)
  const sent = yield* trySend(
    workspace.ownerEmail,
    claimMail(workspace.locale, {
      workspaceName: workspace.name,
      agentName,
      link: link.link,
      expiresAt: claimExpiresAt
    })
  )
  return {
    claimSent: sent,
    claimExpiresAt,
    delivery: sent
      ? deliverySentence(workspace.locale, maskEmail(workspace.ownerEmail), false)
      : deliveryFailedSentence(workspace.locale, "later")
  }
})

/** What the claim page shows before the person confirms (the token is not used up). */
export const inspectClaimLink = Effect.fn("inspectClaimLink")(function* (token: string) {
  const crypto = yield* Crypto
  const found = yield* (yield* TokenRepo).find(yield* crypto.sha256(token), "claim", yield* now)
  if (Option.isNone(found)) return yield* Effect.fail(fail("claim_link_invalid"))
  const workspace = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(workspace)) return yield* Effect.fail(fail("claim_link_invalid"))
  return workspace.value
})

/**
 * Claims an unclaimed workspace: its workspace.claimed event in the same transaction, and the cached
 * copy forgotten so every host sees it claimed (the 7-day deletion stops).
 */
export const markClaimed = Effect.fnUntraced(function* (workspace: Workspace, locale: Locale | null, at: number) {
  const claimed = claim(workspace, locale ?? workspace.locale)
  yield* (yield* Store).transaction(
    Effect.gen(function* () {
      yield* (yield* WorkspaceRepo).update(claimed)
      yield* emit([
        yield* workspaceEvent("workspace.claimed", claimed, at, {
          workspace: { id: claimed.id, name: claimed.name, plan: claimed.plan, claimed: claimed.claimed }
        })
      ])
    })
  )
  yield* (yield* readCache).forgetWorkspace(claimed.id)
  return claimed
})

/** The owner claims the workspace from the e-mailed link, in their language, and is signed in. */
export const claimWorkspace = Effect.fn("claimWorkspace")(function* (token: string, locale: Locale | null) {
  const crypto = yield* Crypto
  const at = yield* now
  const found = yield* (yield* TokenRepo).consume(yield* crypto.sha256(token), "claim", at)
  if (Option.isNone(found)) return yield* Effect.fail(fail("claim_link_invalid"))
  const ws = yield* (yield* WorkspaceRepo).findById(found.value.workspaceId)
  if (Option.isNone(ws) || isExpiredUnclaimed(ws.value, at)) return yield* Effect.fail(fail("claim_link_invalid"))
  if (ws.value.claimed) return yield* Effect.fail(fail("already_claimed"))
  const claimed = yield* markClaimed(ws.value, locale, at)
  return { workspace: claimed, session: yield* startSession(claimed.id, claimed.ownerEmail) }
})
