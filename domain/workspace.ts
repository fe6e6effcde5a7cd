import { DAY_MS } from "./time.ts"

export type Plan = "free" | "pro"
export type Locale = "en" | "ja"
/** How the owner hears of posts waiting for approval: one e-mail each, a digest when several arrive together, or none. */
export type ApprovalMail = "each" | "digest" | "off"
export const approvalMailChoices: ReadonlyArray<ApprovalMail> = ["each", "digest", "off"]

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly ownerEmail: string
  readonly plan: Plan
  readonly claimed: boolean
  readonly locale: Locale
  /** IANA time zone the people's app shows times in. */
  readonly timeZone: string
  readonly approvalMail: ApprovalMail
  readonly createdAt: number
  /** Deletion time while unclaimed; null once claimed. */
  readonly expiresAt: number | null
}

export const UNCLAIMED_LIFETIME_MS = 7 * DAY_MS
export const CLAIM_LINK_LIFETIME_MS = 7 * DAY_MS

/** Plan limits; null means no limit. */
export interface PlanLimits {
  readonly postsPerMonth: number | null
  readonly uploadsWhileUnclaimed: number
}

export const planLimits: Record<Plan, PlanLimits> = {
  free: { postsPerMonth: 30, uploadsWhileUnclaimed: 10 },
  pro: { postsPerMonth: null, uploadsWhileUnclaimed: 10 }
}

/** Whether a text names a time zone this runtime knows (IANA names, "UTC"). */
export const isTimeZone = (name: string): boolean => {
  if (name.length === 0 || name.length > 64) return false
  try {
    new Intl.DateTimeFormat("en", { timeZone: name })
    return true
  } catch {
    return false
  }
}

export const isExpiredUnclaimed = (workspace: Workspace, now: number): boolean =>
  !workspace.claimed && workspace.expiresAt !== null && workspace.expiresAt <= now

export const claim = (workspace: Workspace, locale: Locale): Workspace => ({
  ...workspace,
  claimed: true,
  expiresAt: null,
  locale
})
