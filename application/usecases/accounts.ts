import { Effect, Option } from "effect"
import type { Account } from "../../domain/account.ts"
import type { Actor } from "../../domain/apiKey.ts"
import { fail, invalidFields } from "../../domain/errors.ts"
import { checkText, cleanLabel, describeTextProblem } from "../../domain/text.ts"
import { isPlatform, type Platform } from "../../domain/platforms.ts"
import { formatUtc } from "../../domain/time.ts"
import { HeraldConfig } from "../config.ts"
import { readCache } from "../readCache.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { Connectors } from "../ports/Connectors.ts"
import { Crypto } from "../ports/Crypto.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { now } from "./common.ts"

const CONNECT_LINK_LIFETIME_MS = 60 * 60 * 1000

export const accountView = (a: Account) => ({
  id: a.id,
  platform: a.platform,
  name: a.name,
  username: a.username,
  avatarUrl: a.avatarUrl,
  status: a.status,
  connectedAt: formatUtc(a.connectedAt)
})

export const listAccounts = Effect.fn("listAccounts")(function* (actor: Actor) {
  const accounts = yield* (yield* AccountRepo).listByWorkspace(actor.workspaceId)
  return { accounts: accounts.map(accountView) }
})

const callbackUrl = (publicUrl: string, platform: Platform) => `${publicUrl}/connect/${platform}/callback`

/** A browser URL that connects an account of `platform` to the caller's workspace. */
export const connectUrl = Effect.fn("connectUrl")(function* (actor: Actor, platformName: string) {
  const connectors = yield* Connectors
  const connector = isPlatform(platformName) ? connectors.get(platformName) : Option.none()
  if (Option.isNone(connector)) return yield* Effect.fail(fail("platform_unavailable", { platform: platformName, available: connectors.available }))
  const crypto = yield* Crypto
  const config = yield* HeraldConfig
  const at = yield* now
  const state = yield* crypto.token()
  const expiresAt = at + CONNECT_LINK_LIFETIME_MS
  yield* (yield* TokenRepo).insert({
    hash: yield* crypto.sha256(state), kind: "connect", workspaceId: actor.workspaceId, email: "",
    data: connector.value.platform, createdAt: at, expiresAt
  })
  return {
    url: connector.value.authorizeUrl(state, callbackUrl(config.publicUrl, connector.value.platform)),
    platform: connector.value.platform,
    expiresAt: formatUtc(expiresAt)
  }
})

/** The network sent the person back: finish the connection named by `state`. */
export const completeConnect = Effect.fn("completeConnect")(function* (platformName: string, params: Readonly<Record<string, string>>) {
  const connectors = yield* Connectors
  const connector = isPlatform(platformName) ? connectors.get(platformName) : Option.none()
  if (Option.isNone(connector)) return yield* Effect.fail(fail("platform_unavailable", { platform: platformName, available: connectors.available }))
  // Refused before the state is used up: a bad parameter must not cost the person their link.
  for (const [name, value] of Object.entries(params)) {
    const problem = checkText(value, { kind: "label", max: 4096 })
    if (problem !== null) return yield* Effect.fail(invalidFields([name], describeTextProblem(name, problem)))
  }
  const crypto = yield* Crypto
  const at = yield* now
  const state = params.state ?? ""
  const token = yield* (yield* TokenRepo).consume(yield* crypto.sha256(state), "connect", at)
  if (Option.isNone(token) || token.value.data !== connector.value.platform)
    return yield* Effect.fail(fail("validation_failed", { fields: ["state"] }, "This connect link is invalid, used or expired; ask for a new one with GET /connect/{platform}."))
  const config = yield* HeraldConfig
  const profile = yield* connector.value.complete(params, callbackUrl(config.publicUrl, connector.value.platform))
  const account = yield* (yield* AccountRepo).upsert({
    id: yield* crypto.id("acc"), workspaceId: token.value.workspaceId, platform: connector.value.platform, name: cleanLabel(profile.name, 200),
    username: cleanLabel(profile.username, 200), avatarUrl: profile.avatarUrl, status: "connected", connectedAt: at, externalId: profile.externalId
  })
  yield* (yield* readCache).invalidate(`accounts:${account.workspaceId}`)
  return { account: accountView(account) }
})
