import { Effect } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { formatUtc } from "../../domain/time.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { requirePerson } from "./common.ts"
import { grantEnds } from "./credentials.ts"

/**
 * When each account's grant ends for good unless a person reconnects it (LinkedIn's fixed-length
 * tokens, a refresh token's end); null for accounts renewed for as long as the person allows.
 */
export const accountGrants = Effect.fn("accountGrants")(function* (actor: Actor) {
  const person = yield* requirePerson(actor)
  const accounts = yield* (yield* AccountRepo).listByWorkspace(person.workspaceId)
  const ends = yield* grantEnds(accounts)
  return {
    grants: accounts.map((account) => ({
      accountId: account.id,
      endsAt: ends.has(account.id) ? formatUtc(ends.get(account.id)!) : null
    }))
  }
})
