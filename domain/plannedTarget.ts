import type { Account } from "./account.ts"
import { fail, type HeraldError } from "./errors.ts"
import type { Media } from "./media.ts"
import type { OverridableField, TargetContent } from "./overrides.ts"

/** One target as it would be published: its account and its final content and media. */
export interface PlannedTarget extends TargetContent {
  readonly account: Account
  readonly media: ReadonlyArray<Media>
}

/** A target that passed the rules, with what its network will do that the caller should know. */
export interface CheckedTarget extends PlannedTarget {
  readonly warnings: ReadonlyArray<string>
}

/** Warnings about the post as a whole, and about single targets (which are the post's too). */
export interface Warnings {
  readonly post: (message: string) => void
  readonly target: (target: PlannedTarget, message: string) => void
}

/** The request field a target's value came from (its override's, or the post's). */
export type TargetField = (t: PlannedTarget, name: OverridableField) => string

export const collectWarnings = () => {
  const all: Array<string> = []
  const byAccount = new Map<string, Array<string>>()
  const post = (message: string) => {
    if (!all.includes(message)) all.push(message)
  }
  const warnings: Warnings = {
    post,
    target: (target, message) => {
      post(message)
      const own = byAccount.get(target.account.id) ?? []
      if (!own.includes(message)) byAccount.set(target.account.id, [...own, message])
    }
  }
  return { warnings, all, of: (target: PlannedTarget) => byAccount.get(target.account.id) ?? [] }
}

/** A refusal naming the targets (and their networks) that cannot take the post. */
export const refusal = (
  code: Parameters<typeof fail>[0],
  refused: ReadonlyArray<PlannedTarget>,
  extra?: Record<string, unknown>
): HeraldError =>
  fail(code, {
    accountIds: refused.map((t) => t.account.id),
    platforms: [...new Set(refused.map((t) => t.account.platform))],
    ...extra
  })

export const imagesOf = (t: PlannedTarget) => t.media.filter((m) => m.type === "image")
export const videosOf = (t: PlannedTarget) => t.media.filter((m) => m.type === "video")
