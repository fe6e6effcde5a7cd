import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import { platformNames } from "../../../domain/platforms.ts"
import { formatUtc } from "../../../domain/time.ts"
import type { NetworkOptions } from "../../../domain/contract/postRequest.ts"
import type { Media } from "../../../domain/media.ts"
import { type AdvisedPost, Publishers } from "../../ports/Publishers.ts"
import { credentialsFor, grantEnds, RENEW_AHEAD_MS } from "../credentials.ts"

/**
 * A dry-run warning when the account's grant ends before the post is due (LinkedIn's 60-day tokens
 * without a refresh token, a refresh token's fixed end): the post would fail with
 * account_needs_reconnection unless a person reconnects the account first.
 */
const grantWarning = (account: Account, end: number | undefined, dueAt: number) =>
  end !== undefined && end - RENEW_AHEAD_MS <= dueAt
    ? [
        `The ${platformNames[account.platform]} account ${account.username} (${account.id}) can post only until ${formatUtc(end)}, before this post is due: reconnect it with GET /connect/${account.platform} before then, or the post fails with account_needs_reconnection.`
      ]
    : []

/** What the account's network says about posting `post` to it when the post is due (quotas). */
export const networkAdvice = Effect.fnUntraced(function* (account: Account, dueAt: number, post: AdvisedPost) {
  const advise = Option.flatMap((yield* Publishers).get(account.platform), (p) => Option.fromNullishOr(p.advise))
  return Option.isNone(advise) ? [] : yield* advise.value(account, dueAt, post)
})

/** Everything a dry run adds about each target beyond the rules, in the targets' order; none for accounts that must be reconnected first. */
export const dryRunAdvice = Effect.fnUntraced(function* (
  targets: ReadonlyArray<
    { readonly account: Account; readonly media: ReadonlyArray<Media> } & NonNullable<AdvisedPost["text"]>
  >,
  options: NetworkOptions,
  dueAt: number
) {
  const ends = yield* grantEnds(targets.map((t) => t.account).filter((a) => a.status === "connected"))
  const context = yield* Effect.context<Effect.Services<ReturnType<typeof credentialsFor>>>()
  // Read only if the network's advice asks; a refused renewal is no advice, and the target's own check tells it.
  const credentialsOf = (account: Account) =>
    credentialsFor(account).pipe(
      Effect.map(Option.getOrNull),
      Effect.orElseSucceed(() => null),
      Effect.provideContext(context)
    )
  return yield* Effect.forEach(targets, ({ account, media, content, thread, firstComment }) =>
    account.status === "connected"
      ? Effect.map(
          networkAdvice(account, dueAt, {
            media,
            options,
            text: { content, thread, firstComment },
            credentials: credentialsOf(account)
          }),
          (network): ReadonlyArray<string> => [...grantWarning(account, ends.get(account.id), dueAt), ...network]
        )
      : Effect.succeed<ReadonlyArray<string>>([])
  )
})
