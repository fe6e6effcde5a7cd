import { Context, type Effect } from "effect"
import type { RawFigures } from "../../domain/metrics.ts"
import type { Platform } from "../../domain/platforms.ts"

/** A published target whose figures Herald reads. */
export interface MetricsTarget {
  readonly workspaceId: string
  readonly postId: string
  readonly accountId: string
  readonly platform: Platform
  readonly externalId: string
  readonly publishedAt: number
}

/** A target as leased for a refresh: how many scheduled reads it has had. */
export interface DueTarget extends MetricsTarget {
  readonly stage: number
}

/** Due targets of one account, leased together so that one network call can read several. */
export interface MetricsLease {
  /** Names the lease in a scheduler's lease loop: the account and when it was leased (one lease per account at a time). */
  readonly id: string
  readonly workspaceId: string
  readonly accountId: string
  readonly platform: Platform
  readonly targets: ReadonlyArray<DueTarget>
}

/** One read of a target's figures, under the network's own names. */
export interface Reading {
  readonly postId: string
  readonly accountId: string
  readonly platform: Platform
  readonly publishedAt: number
  readonly readAt: number
  readonly raw: RawFigures
}

/** What a refresh did to one leased target: its figures (null: the network gave none) and its next due time. */
export interface Refreshed {
  readonly target: DueTarget
  readonly raw: RawFigures | null
  readonly stage: number
  /** null: no scheduled read left (on demand only). */
  readonly dueAt: number | null
}

/** Whether Herald can read an account's figures: `unavailable` names why (a scope, an access tier). */
export interface AccountMetricsState {
  readonly accountId: string
  readonly state: "available" | "unavailable"
  readonly reason: string | null
  readonly checkedAt: number
}

export interface MetricsRepoShape {
  /** Starts refreshing newly published targets (inside Store.transaction it joins it); known ones are kept. */
  readonly schedule: (targets: ReadonlyArray<MetricsTarget>) => Effect.Effect<void>
  /**
   * Leases due targets for `leaseMs`, one lease per account, of accounts with nothing leased now (an
   * account is read by one scheduler at a time): workspaces take turns (each one's account with the
   * oldest due target, then each one's second), then the chosen accounts take turns for `targets`.
   */
  readonly lease: (
    now: number,
    limits: MetricsLeaseLimits,
    leaseMs: number
  ) => Effect.Effect<ReadonlyArray<MetricsLease>>
  /** The heartbeat: pushes the leases of targets still held to `until` (targets completed or postponed are left alone). */
  readonly extend: (leases: ReadonlyArray<MetricsLease>, until: number) => Effect.Effect<void>
  /** Records a lease's outcome per target (readings stored, next due times set, leases released). */
  readonly complete: (
    refreshed: ReadonlyArray<Refreshed>,
    readAt: number,
    state: AccountMetricsState
  ) => Effect.Effect<void>
  /** Releases leased targets, due again at `dueAt` (a rate limit, the network down, an account unavailable). */
  readonly postpone: (
    targets: ReadonlyArray<DueTarget>,
    dueAt: number,
    state: AccountMetricsState | null
  ) => Effect.Effect<void>
  /**
   * Makes a post's targets due now, for accounts not asked on demand within `floorMs`; answers the
   * accounts refused by the floor with when they may ask again.
   */
  readonly demand: (
    workspaceId: string,
    postId: string,
    now: number,
    floorMs: number
  ) => Effect.Effect<{ readonly queued: number; readonly notBefore: number | null }>
  /** The latest reading of each target of these posts. */
  readonly latest: (workspaceId: string, postIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Reading>>
  /** Every reading of a post's targets, oldest first. */
  readonly history: (workspaceId: string, postId: string) => Effect.Effect<ReadonlyArray<Reading>>
  /** The latest reading of each target published in [from, to), optionally of one account or network. */
  readonly published: (
    workspaceId: string,
    query: {
      readonly from: number
      readonly to: number
      readonly accountId?: string | undefined
      readonly platform?: Platform | undefined
    }
  ) => Effect.Effect<ReadonlyArray<Reading>>
  /**
   * The account was connected again: an `unavailable` state is cleared, and its targets postponed past
   * their scheduled read (`offsetsMs`: the read times after publishing, by stage) are due at `now`.
   * Whether it was unavailable.
   */
  readonly reconnected: (
    workspaceId: string,
    accountId: string,
    now: number,
    offsetsMs: ReadonlyArray<number>
  ) => Effect.Effect<boolean>
  /** The metrics state of these accounts (none: never read). */
  readonly accountStates: (
    workspaceId: string,
    accountIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<AccountMetricsState>>
}

/** How much one look leases: at most `accounts` accounts (a lease each), `targets` targets in all. */
export interface MetricsLeaseLimits {
  readonly accounts: number
  readonly targets: number
}

/** Leased rows grouped by account, in the order they came (oldest due first), leased at `now`. */
export const groupLeases = (targets: ReadonlyArray<DueTarget>, now: number): ReadonlyArray<MetricsLease> => {
  const byAccount = new Map<string, Array<DueTarget>>()
  for (const t of targets) {
    const list = byAccount.get(t.accountId)
    if (list === undefined) byAccount.set(t.accountId, [t])
    else list.push(t)
  }
  return [...byAccount.values()].map((ts) => ({
    id: `${ts[0].accountId}@${now}`,
    workspaceId: ts[0].workspaceId,
    accountId: ts[0].accountId,
    platform: ts[0].platform,
    targets: ts
  }))
}

export class MetricsRepo extends Context.Service<MetricsRepo, MetricsRepoShape>()("herald/MetricsRepo") {}
