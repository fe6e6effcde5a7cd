import { Effect, Option } from "effect"
import type { Actor } from "../../domain/apiKey.ts"
import { fail } from "../../domain/errors.ts"
import { isWellFormedId } from "../../domain/ids.ts"
import { AccountRepo } from "../ports/AccountRepo.ts"
import { type PublishError, Publishers } from "../ports/Publishers.ts"
import type { NetworkUnavailable } from "../ports/Connectors.ts"
import { authorized, credentialsFor, type NeedsReconnection } from "./credentials.ts"

/** The network's refusal of a boards read, as the caller sees it. */
const upstream = (e: PublishError | NeedsReconnection | NetworkUnavailable) =>
  e._tag === "NeedsReconnection"
    ? fail("account_needs_reconnection", {}, e.message)
    : e._tag === "NetworkUnavailable" || e.reason._tag !== "RateLimited"
      ? fail(
          e._tag === "NetworkUnavailable" || e.retryable ? "upstream_unavailable" : "upstream_rejected",
          {},
          e.message
        )
      : fail("rate_limited", { retryAfterMs: e.retryAfterMs }, e.message)

/**
 * GET /accounts/{id}/boards: where the account's posts can go, read from its network with the account's
 * (renewed if need be) credentials: a Pinterest account's boards (ids for `pinterest.boardId`), a Reddit
 * account's subreddits (ids for `reddit.subreddit`).
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
  const list = boards.value
  const credentials = yield* credentialsFor(account).pipe(
    Effect.mapError((e) =>
      e._tag === "NeedsReconnection"
        ? fail("account_needs_reconnection", { accountIds: [account.id] }, e.message)
        : fail("upstream_unavailable", {}, e.message)
    )
  )
  return {
    boards: yield* authorized(account, Option.getOrNull(credentials), (fresh) => list(account, fresh)).pipe(
      Effect.mapError(upstream)
    )
  }
})
