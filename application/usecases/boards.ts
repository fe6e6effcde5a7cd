import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { type PublishError, Publishers } from "../ports/Publishers.ts"
import { credentialsFor } from "./credentials.ts"

/** The network's refusal of a boards read, as the caller sees it. */
const upstream = (e: PublishError) =>
  e.rateLimited
    ? fail("rate_limited", { retryAfterMs: e.retryAfterMs }, e.message)
    : e.unauthorized
      ? fail("account_needs_reconnection", {}, e.message)
      : fail(e.retryable ? "upstream_unavailable" : "upstream_rejected", {}, e.message)

/**
 * GET /accounts/{id}/boards: the boards a Pinterest account can pin to, read from Pinterest with the
 * account's (renewed if need be) credentials; the ids go in a post's `pinterest.boardId`.
 */
export const listBoards = Effect.fn("listBoards")(function* (actor: Actor, accountId: string) {
  const found = isWellFormedId(accountId)
    ? yield* (yield* AccountRepo).findById(actor.workspaceId, accountId)
    : Option.none()
  if (Option.isNone(found)) return yield* Effect.fail(fail("account_not_found", { accountIds: [accountId] }))
  const account = found.value
  if (account.status !== "connected")
    return yield* Effect.fail(fail("account_needs_reconnection", { accountIds: [account.id] }))
  const boards = Option.flatMap((yield* Publishers).get(account.platform), (p) => Option.fromNullishOr(p.boards))
  if (Option.isNone(boards)) return yield* Effect.fail(fail("boards_unsupported", { platform: account.platform }))
  const credentials = yield* credentialsFor(account).pipe(
    Effect.mapError((e) =>
      e._tag === "NeedsReconnection"
        ? fail("account_needs_reconnection", { accountIds: [account.id] }, e.message)
        : fail("upstream_unavailable", {}, e.message)
    )
  )
  return { boards: yield* Effect.mapError(boards.value(account, Option.getOrNull(credentials)), upstream) }
})
