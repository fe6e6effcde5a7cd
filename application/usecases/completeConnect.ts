import { Effect, Option } from "effect"
import type { Account } from "../../domain/account.ts"
import { fail } from "../../domain/errors.ts"
import { refreshOffsetsMs } from "../../domain/metrics.ts"
import { cleanLabel } from "../../domain/text.ts"
import { HeraldConfig } from "../config.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { Crypto } from "../ports/Crypto.ts"
import { MetricsRepo } from "../ports/MetricsRepo.ts"
import { Store } from "../ports/Store.ts"
import { TokenRepo } from "../ports/TokenRepo.ts"
import { readCache } from "../readCache.ts"
import { accountView } from "./accountView.ts"
import { callbackUrl, connectorFor, continuedLink, invalidConnectLink } from "./connectLink.ts"
import { storeCredentials } from "./credentials.ts"
import { accountEvent, emit } from "./webhooks/events.ts"

/**
 * The network sent the person back (or Herald's connect form was sent): finish the connection named
 * by `state`. Each account it gives access to is stored (a reconnection keeps its id), with its
 * credentials sealed; a refresh token the network does not send again is kept, never lost.
 */
export const completeConnect = Effect.fn("completeConnect")(function* (
  platformName: string,
  params: Readonly<Record<string, string>>,
  browser: string | null
) {
  const connector = yield* connectorFor(platformName)
  // Read, not used up, until the network has answered: a wrong app password or a failed exchange
  // leaves the person their link to try again.
  const { stateHash, at, token, remembered } = yield* continuedLink(connector.platform, params, browser)
  const crypto = yield* Crypto
  const tokens = yield* TokenRepo
  const config = yield* HeraldConfig
  const connections = yield* connector.complete({
    params,
    callbackUrl: callbackUrl(config.publicUrl, connector.platform),
    verifier: remembered.verifier ?? null
  })
  if (connections.length === 0)
    return yield* Effect.fail(
      fail("validation_failed", { fields: ["params"] }, "The network gave access to no account.")
    )
  // Single use: of two callbacks with one state, only the first to get here connects.
  if (Option.isNone(yield* tokens.consume(stateHash, "connect", at))) return yield* Effect.fail(invalidConnectLink())
  const accounts: Array<Account> = []
  const store = yield* Store
  for (const { platform, profile, credentials } of connections) {
    const id = yield* crypto.id("acc")
    // The account and its account.connected event together.
    const account = yield* store.transaction(
      Effect.gen(function* () {
        const stored = yield* (yield* AccountRepo).upsert({
          id,
          workspaceId: token.workspaceId,
          platform: platform ?? connector.platform,
          name: cleanLabel(profile.name, 200),
          username: cleanLabel(profile.username, 200),
          avatarUrl: profile.avatarUrl,
          status: "connected",
          connectedAt: at,
          externalId: profile.externalId
        })
        // Never an account without the credentials it was connected with.
        if (credentials !== null) yield* storeCredentials(stored.id, credentials)
        // Reconnected (its id kept): figures refused for a missing scope or tier may be given now; read them soon.
        if (stored.id !== id)
          yield* (yield* MetricsRepo).reconnected(stored.workspaceId, stored.id, at, refreshOffsetsMs)
        yield* emit([yield* accountEvent("account.connected", stored, at)])
        return stored
      })
    )
    accounts.push(account)
  }
  yield* (yield* readCache).forgetAccounts(token.workspaceId)
  return { account: accountView(accounts[0]!), accounts: accounts.map(accountView) }
})
