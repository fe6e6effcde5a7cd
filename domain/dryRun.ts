import type { Account } from "./account.ts"
import { networkRules, type TextCounting, textLength } from "./networkRules.ts"
import { platformNames } from "./platforms.ts"
import type { CheckedTarget } from "./plannedTarget.ts"

/** One target of a dry run: what its network would get, how long the text is by the network's own counting, and what to know. */
export interface TargetPreview {
  readonly accountId: string
  readonly platform: string
  readonly username: string
  readonly content: string
  readonly mediaIds: ReadonlyArray<string>
  readonly thread: ReadonlyArray<string>
  readonly firstComment: string | null
  readonly length: { readonly used: number; readonly limit: number }
  readonly warnings: ReadonlyArray<string>
}

/** From this share of the limit on, the dry run says how close the text is. */
const NEAR_LIMIT = 0.9

const countingNotes: Record<TextCounting, string> = {
  chars: "characters",
  graphemes: "graphemes (an emoji counts once)",
  "x-weighted": "X's weighted characters (a link counts 23, an emoji or a CJK character 2)",
  threads: "Threads' characters (an emoji counts its UTF-8 bytes)",
  mastodon: "Mastodon's characters (a link counts 23, a mention only its username)"
}

/** Says how much of the network's limit the text uses, when it is close. */
export const lengthWarning = (account: Account, used: number, limit: number): string | null =>
  used >= NEAR_LIMIT * limit
    ? `The ${platformNames[account.platform]} text uses ${used} of ${limit} ${countingNotes[networkRules[account.platform].textCounting]}.`
    : null

/** The dry run's word for a target whose account must be connected again first. */
export const reconnectionWarning = (account: Account): string =>
  `The ${platformNames[account.platform]} account ${account.username} (${account.id}) needs reconnecting: connect it again with GET /connect/${account.platform}; until then a post to it is refused with account_needs_reconnection.`

/** The target's preview; `extra` are warnings found beyond the rules (the account's grant, the network's quota, media reach). */
export const targetPreview = (target: CheckedTarget, extra: ReadonlyArray<string>): TargetPreview => {
  const account = target.account
  const limit = networkRules[account.platform].textLimit
  const used = textLength(target.content, networkRules[account.platform].textCounting)
  const length = lengthWarning(account, used, limit)
  const stale = account.status === "connected" ? [] : [reconnectionWarning(account)]
  return {
    accountId: account.id,
    platform: account.platform,
    username: account.username,
    content: target.content,
    mediaIds: target.mediaIds,
    thread: target.thread,
    firstComment: target.firstComment,
    length: { used, limit },
    warnings: [...new Set([...stale, ...(length === null ? [] : [length]), ...target.warnings, ...extra])]
  }
}
