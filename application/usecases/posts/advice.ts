import { Effect, Option } from "effect"
import type { Account } from "../../../domain/account.ts"
import { platformNames } from "../../../domain/platforms.ts"
import { formatUtc } from "../../../domain/time.ts"
import { Publishers } from "../../ports/Publishers.ts"
import { grantEndFor, RENEW_AHEAD_MS } from "../credentials.ts"

/**
 * Dry-run warnings for targets whose grant ends before the post is due (LinkedIn's 60-day tokens
 * without a refresh token, a refresh token's fixed end): the post would fail with
 * account_needs_reconnection unless a person reconnects the account first.
 */
export const grantWarnings = Effect.fnUntraced(function* (targets: ReadonlyArray<Account>, dueAt: number) {
  const warnings: Array<string> = []
  for (const account of targets) {
    const end = yield* grantEndFor(account)
    if (Option.isSome(end) && end.value - RENEW_AHEAD_MS <= dueAt)
      warnings.push(
        `The ${platformNames[account.platform]} account ${account.username} (${account.id}) can post only until ${formatUtc(end.value)}, before this post is due: reconnect it with GET /connect/${account.platform} before then, or the post fails with account_needs_reconnection.`
      )
  }
  return warnings
})

/** What each target's network says about posting to it when the post is due (quotas), once per account. */
export const networkAdvice = Effect.fnUntraced(function* (targets: ReadonlyArray<Account>, dueAt: number) {
  const publishers = yield* Publishers
  const said = yield* Effect.forEach(targets, (account) =>
    Option.match(
      Option.flatMap(publishers.get(account.platform), (p) => Option.fromNullishOr(p.advise)),
      {
        onNone: () => Effect.succeed<ReadonlyArray<string>>([]),
        onSome: (advise) => advise(account, dueAt)
      }
    )
  )
  return [...new Set(said.flat())]
})

/** Everything a dry run adds about its targets beyond the rules. */
export const dryRunAdvice = (targets: ReadonlyArray<Account>, dueAt: number) =>
  Effect.map(Effect.all([grantWarnings(targets, dueAt), networkAdvice(targets, dueAt)]), ([grants, networks]) => [...grants, ...networks])
