import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import { platformNames } from "../../domain/platforms.ts"
import { readCache } from "../readCache.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { Connectors } from "../ports/Connectors.ts"
import { Store } from "../ports/Store.ts"
import { accountView } from "./accountView.ts"
import { now } from "./common.ts"
import { accountEvent, emit } from "./webhooks/events.ts"

export { accountView } from "./accountView.ts"
// The connect flow has files of its own; named here too for index.ts (the library's API) and hosts/http/pages.
export { completeConnect } from "./completeConnect.ts"
export {
  connectUrl,
  connectWithFormFields,
  continueConnect,
  inspectConnectLink,
  inspectConnectState,
  invalidConnectLink
} from "./connectLink.ts"

export const listAccounts = Effect.fn("listAccounts")(function* (actor: Actor) {
  const accounts = yield* (yield* AccountRepo).listByWorkspace(actor.workspaceId)
  return { accounts: accounts.map(accountView) }
})

/** A person or a key disconnects an account: it and its credentials are gone; its waiting targets fail with account_disconnected. */
export const disconnectAccount = Effect.fn("disconnectAccount")(function* (actor: Actor, accountId: string) {
  const at = yield* now
  // The removal and its account.disconnected event together.
  const removed =
    isWellFormedId(accountId) &&
    (yield* (yield* Store).transaction(
      Effect.gen(function* () {
        const repo = yield* AccountRepo
        const account = yield* repo.findById(actor.workspaceId, accountId)
        if (Option.isNone(account) || !(yield* repo.delete(actor.workspaceId, accountId))) return false
        yield* emit([yield* accountEvent("account.disconnected", account.value, at)])
        return true
      })
    ))
  if (!removed) return yield* Effect.fail(fail("account_not_found", { accountIds: [accountId] }))
  yield* (yield* readCache).forgetAccounts(actor.workspaceId)
  return { id: accountId, disconnected: true as const }
})

/** The networks this Herald can connect (those configured), with their names. */
export const offeredNetworks = Effect.fn("offeredNetworks")(function* () {
  return { networks: (yield* Connectors).available.map((platform) => ({ platform, name: platformNames[platform] })) }
})
