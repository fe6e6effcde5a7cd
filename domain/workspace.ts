import { DAY_MS } from "./time.ts"

export type Plan = "free" | "pro"
export type Locale = "en" | "ja"

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly ownerEmail: string
  readonly plan: Plan
  readonly claimed: boolean
  readonly locale: Locale
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

export const isExpiredUnclaimed = (workspace: Workspace, now: number): boolean => !workspace.claimed && workspace.expiresAt !== null && workspace.expiresAt <= now

export const claim = (workspace: Workspace, locale: Locale): Workspace => ({
  ...workspace,
  claimed: true,
  expiresAt: null,
  locale
})
