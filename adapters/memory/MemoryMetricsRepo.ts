import { Effect, Layer } from "effect"
import { groupLeases, MetricsRepo, type MetricsRepoShape, type Reading } from "../../application/ports/MetricsRepo.ts"
import { type MemoryMetricTarget, MemoryState } from "./MemoryState.ts"

const keyOf = (t: { readonly postId: string; readonly accountId: string }) => `${t.postId}|${t.accountId}`

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const { metricTargets, metricAccounts } = state.tables
  const latestOf = (readings: ReadonlyArray<Reading>) => readings[readings.length - 1]
  return {
    schedule: (targets) =>
      state.sync(() => {
        for (const t of targets)
          if (!metricTargets.has(keyOf(t)))
            metricTargets.set(keyOf(t), {
              ...t,
              stage: 0,
              dueAt: t.publishedAt + 3_600_000,
              leasedUntil: null,
              readings: []
            })
      }),
    lease: (now, limits, leaseMs) =>
      state.sync(() => {
        const scheduled = [...metricTargets.values()].filter((t) => t.dueAt !== null && t.dueAt <= now)
        const held = new Set(
          scheduled.filter((t) => t.leasedUntil !== null && t.leasedUntil >= now).map((t) => t.accountId)
        )
        // Each free account's due targets, oldest first (the map keeps insertion order: sorted by due, then post).
        const byAccount = new Map<string, Array<MemoryMetricTarget>>()
        for (const t of scheduled.sort((a, b) => a.dueAt! - b.dueAt! || (a.postId < b.postId ? -1 : 1))) {
          if (held.has(t.accountId)) continue
          const list = byAccount.get(t.accountId)
          if (list === undefined) byAccount.set(t.accountId, [t])
          else list.push(t)
        }
        // Workspaces take turns: each one's account with the oldest due target, then each one's second.
        const turns = new Map<string, number>()
        const accounts = [...byAccount.values()]
          .sort((a, b) => a[0].dueAt! - b[0].dueAt! || (a[0].accountId < b[0].accountId ? -1 : 1))
          .map((ts) => {
            const turn = (turns.get(ts[0].workspaceId) ?? 0) + 1
            turns.set(ts[0].workspaceId, turn)
            return { ts, turn }
          })
          .sort((a, b) => a.turn - b.turn)
          .slice(0, limits.accounts)
          .map((a) => a.ts)
        // Then the chosen accounts take turns for the targets.
        const due: Array<MemoryMetricTarget> = []
        for (let k = 0; due.length < limits.targets && accounts.some((ts) => k < ts.length); k++)
          for (const ts of accounts) if (k < ts.length && due.length < limits.targets) due.push(ts[k])
        for (const t of due) metricTargets.set(keyOf(t), { ...t, leasedUntil: now + leaseMs })
        const order = new Map(accounts.map((ts, i) => [ts[0].accountId, i]))
        return groupLeases(
          due
            .sort((a, b) => order.get(a.accountId)! - order.get(b.accountId)! || a.dueAt! - b.dueAt!)
            .map(({ dueAt: _d, leasedUntil: _l, readings: _r, ...target }) => target),
          now
        )
      }),
    extend: (leases, until) =>
      state.sync(() => {
        for (const lease of leases)
          for (const target of lease.targets) {
            const t = metricTargets.get(keyOf(target))
            if (t !== undefined && t.leasedUntil !== null) metricTargets.set(keyOf(t), { ...t, leasedUntil: until })
          }
      }),
    complete: (refreshed, readAt, account) =>
      state.sync(() => {
        for (const r of refreshed) {
          const t = metricTargets.get(keyOf(r.target))
          if (t === undefined) continue
          const reading: Reading | null =
            r.raw === null
              ? null
              : {
                  postId: t.postId,
                  accountId: t.accountId,
                  platform: t.platform,
                  publishedAt: t.publishedAt,
                  readAt,
                  raw: r.raw
                }
          metricTargets.set(keyOf(t), {
            ...t,
            stage: r.stage,
            dueAt: r.dueAt,
            leasedUntil: null,
            readings: reading === null ? t.readings : [...t.readings, reading]
          })
        }
        const workspaceId = refreshed[0]?.target.workspaceId
        if (workspaceId !== undefined)
          metricAccounts.set(account.accountId, {
            ...account,
            workspaceId,
            demandedAt: metricAccounts.get(account.accountId)?.demandedAt ?? null
          })
      }),
    postpone: (targets, dueAt, account) =>
      state.sync(() => {
        for (const target of targets) {
          const t = metricTargets.get(keyOf(target))
          if (t !== undefined) metricTargets.set(keyOf(t), { ...t, dueAt, leasedUntil: null })
        }
        if (account !== null && targets.length > 0)
          metricAccounts.set(account.accountId, {
            ...account,
            workspaceId: targets[0].workspaceId,
            demandedAt: metricAccounts.get(account.accountId)?.demandedAt ?? null
          })
      }),
    demand: (workspaceId, postId, now, floorMs) =>
      state.sync(() => {
        let queued = 0
        let notBefore: number | null = null
        for (const t of metricTargets.values()) {
          if (t.workspaceId !== workspaceId || t.postId !== postId) continue
          const account = metricAccounts.get(t.accountId)
          const demandedAt = account?.demandedAt ?? null
          if (demandedAt !== null && demandedAt + floorMs > now) {
            notBefore = Math.max(notBefore ?? 0, demandedAt + floorMs)
            continue
          }
          metricTargets.set(keyOf(t), { ...t, dueAt: now })
          metricAccounts.set(t.accountId, {
            accountId: t.accountId,
            state: account?.state ?? "available",
            reason: account?.reason ?? null,
            checkedAt: account?.checkedAt ?? now,
            workspaceId,
            demandedAt: now
          })
          queued++
        }
        return { queued, notBefore }
      }),
    latest: (workspaceId, postIds) =>
      state.sync(() =>
        [...metricTargets.values()]
          .filter((t) => t.workspaceId === workspaceId && postIds.includes(t.postId) && t.readings.length > 0)
          .map((t) => latestOf(t.readings)!)
      ),
    history: (workspaceId, postId) =>
      state.sync(() =>
        [...metricTargets.values()]
          .filter((t) => t.workspaceId === workspaceId && t.postId === postId)
          .flatMap((t) => t.readings)
          .sort((a, b) => a.readAt - b.readAt)
      ),
    published: (workspaceId, query) =>
      state.sync(() =>
        [...metricTargets.values()]
          .filter(
            (t) =>
              t.workspaceId === workspaceId &&
              t.publishedAt >= query.from &&
              t.publishedAt < query.to &&
              t.readings.length > 0 &&
              (query.accountId === undefined || t.accountId === query.accountId) &&
              (query.platform === undefined || t.platform === query.platform)
          )
          .sort((a, b) => a.publishedAt - b.publishedAt)
          .map((t) => latestOf(t.readings)!)
      ),
    reconnected: (workspaceId, accountId, now, offsetsMs) =>
      state.sync(() => {
        const account = metricAccounts.get(accountId)
        if (account === undefined || account.workspaceId !== workspaceId || account.state !== "unavailable")
          return false
        metricAccounts.set(accountId, { ...account, state: "available", reason: null, checkedAt: now })
        for (const t of metricTargets.values()) {
          const scheduledAt = offsetsMs[t.stage] === undefined ? null : t.publishedAt + offsetsMs[t.stage]
          if (
            t.accountId === accountId &&
            t.dueAt !== null &&
            scheduledAt !== null &&
            t.dueAt > Math.max(now, scheduledAt)
          )
            metricTargets.set(keyOf(t), { ...t, dueAt: now })
        }
        return true
      }),
    accountStates: (workspaceId, accountIds) =>
      state.sync(() =>
        accountIds.flatMap((id) => {
          const s = metricAccounts.get(id)
          return s === undefined || s.workspaceId !== workspaceId
            ? []
            : [{ accountId: s.accountId, state: s.state, reason: s.reason, checkedAt: s.checkedAt }]
        })
      )
  } satisfies MetricsRepoShape
})

export const layer = Layer.effect(MetricsRepo)(make)
