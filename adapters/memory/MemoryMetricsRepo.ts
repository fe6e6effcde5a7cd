import { Effect, Layer } from "effect"
import { groupLeases, MetricsRepo, type MetricsRepoShape, type Reading } from "../../application/ports/MetricsRepo.ts"
import { MemoryState } from "./MemoryState.ts"

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
    lease: (now, limit, leaseMs) =>
      state.sync(() => {
        const due = [...metricTargets.values()]
          .filter((t) => t.dueAt !== null && t.dueAt <= now && (t.leasedUntil === null || t.leasedUntil < now))
          .sort((a, b) => a.dueAt! - b.dueAt! || (a.accountId < b.accountId ? -1 : 1))
          .slice(0, limit)
        for (const t of due) metricTargets.set(keyOf(t), { ...t, leasedUntil: now + leaseMs })
        return groupLeases(due.map(({ dueAt: _d, leasedUntil: _l, readings: _r, ...target }) => target))
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
