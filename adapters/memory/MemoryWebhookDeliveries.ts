import { Effect, Layer, Option } from "effect"
import { pauseFor } from "../../application/usecases/webhooks/circuit.ts"
import {
  type DeliveryLimits,
  type LeasedDelivery,
  WebhookDeliveries,
  type WebhookDeliveriesShape
} from "../../application/ports/WebhookDeliveries.ts"
import type { Delivery } from "../../domain/webhooks.ts"
import { MemoryState, type Tables } from "./MemoryState.ts"

type Stored = Tables["deliveries"] extends Map<string, infer D> ? D : never

const plain = ({ availableAt: _a, seq: _s, orderingKey: _o, ...delivery }: Stored): Delivery => delivery

/** The delivery queue on the shared memory state; times come from the caller, so TestClock drives it. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const t = () => state.tables
  const leased = (d: Stored): LeasedDelivery => {
    const event = t().events.get(d.eventId)!
    const webhook = t().webhooks.get(d.webhookId)!
    return {
      id: d.id,
      attempts: d.attempts,
      roundFailures: d.roundFailures,
      event: { id: event.id, type: event.type, createdAt: event.createdAt, body: event.body },
      webhook: {
        id: webhook.id,
        workspaceId: webhook.workspaceId,
        url: webhook.url,
        sealedSecret: webhook.sealedSecret,
        failingSince: webhook.failingSince,
        hangs: t().circuits.get(webhook.id)?.hangs ?? 0
      }
    }
  }
  /** A worker holds it now: its lease (availableAt) runs past both now and its planned try. */
  const isLeased = (d: Stored, now: number) =>
    d.status === "pending" && d.availableAt > now && d.availableAt !== d.nextAttemptAt
  const take = (d: Stored, now: number, leaseMs: number) => {
    const next = { ...d, attempts: d.attempts + 1, availableAt: now + leaseMs, lastAttemptAt: now }
    t().deliveries.set(d.id, next)
    return leased(next)
  }
  /** Any answer closes an endpoint's circuit; hung tries open it, pausing it and planning its waiting deliveries for then. */
  const circuit = (
    webhookId: string,
    seen: { at: number; answered: boolean; hung: number },
    limits: DeliveryLimits
  ) => {
    const hangs = seen.answered ? 0 : (t().circuits.get(webhookId)?.hangs ?? 0) + seen.hung
    if (hangs < limits.hangsToPause) {
      if (t().circuits.has(webhookId)) t().circuits.set(webhookId, { hangs, pausedUntil: null })
      return
    }
    const pausedUntil = seen.at + pauseFor(hangs, limits)
    t().circuits.set(webhookId, { hangs, pausedUntil })
    for (const d of t().deliveries.values())
      if (d.webhookId === webhookId && d.status === "pending" && !isLeased(d, seen.at) && d.availableAt < pausedUntil)
        t().deliveries.set(d.id, { ...d, availableAt: pausedUntil, nextAttemptAt: pausedUntil })
  }
  return {
    lease: (now, max, leaseMs, limits) =>
      state.sync(() => {
        // Per endpoint and ordering key, only the oldest unfinished delivery may go; count the tries in flight.
        const head = new Map<string, Stored>()
        const heldBy = { hook: new Map<string, number>(), space: new Map<string, number>() }
        const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
        for (const d of t().deliveries.values()) {
          if (d.status !== "pending") continue
          if (isLeased(d, now)) {
            bump(heldBy.hook, d.webhookId)
            bump(heldBy.space, d.workspaceId)
          }
          const key = `${d.webhookId}\u0000${d.orderingKey}`
          const current = head.get(key)
          if (current === undefined || d.seq < current.seq) head.set(key, d)
        }
        const open = (webhookId: string) => {
          const paused = t().circuits.get(webhookId)?.pausedUntil ?? null
          return t().webhooks.get(webhookId)?.enabled === true && (paused === null || paused <= now)
        }
        const due = [...head.values()]
          .filter((d) => d.availableAt <= now && open(d.webhookId))
          .sort((a, b) => a.availableAt - b.availableAt || a.seq - b.seq)
        // Within the caps, each workspace's oldest first, then each one's next: turns, not first come first served.
        const turns = new Map<string, number>()
        const ranked: Array<{ d: Stored; turn: number }> = []
        for (const d of due) {
          const hookCap = (t().circuits.get(d.webhookId)?.hangs ?? 0) >= limits.hangsToPause ? 1 : limits.perEndpoint
          if ((heldBy.hook.get(d.webhookId) ?? 0) >= hookCap) continue
          if ((heldBy.space.get(d.workspaceId) ?? 0) >= limits.perWorkspace) continue
          bump(heldBy.hook, d.webhookId)
          bump(heldBy.space, d.workspaceId)
          const turn = (turns.get(d.workspaceId) ?? 0) + 1
          turns.set(d.workspaceId, turn)
          ranked.push({ d, turn })
        }
        return ranked
          .sort((a, b) => a.turn - b.turn || a.d.availableAt - b.d.availableAt || a.d.seq - b.d.seq)
          .slice(0, max)
          .map(({ d }) => take(d, now, leaseMs))
      }),
    extend: (list, until) =>
      state.sync(() => {
        const held = new Set<string>()
        for (const l of list) {
          const d = t().deliveries.get(l.id)
          if (
            d === undefined ||
            d.attempts !== l.attempts ||
            d.status !== "pending" ||
            d.availableAt === d.nextAttemptAt
          )
            continue
          t().deliveries.set(d.id, { ...d, availableAt: until })
          held.add(d.id)
        }
        return held
      }),
    leaseOne: (id, now, leaseMs) =>
      state.sync(() => {
        const d = t().deliveries.get(id)
        return d === undefined || d.status !== "pending" || isLeased(d, now)
          ? Option.none()
          : Option.some(take(d, now, leaseMs))
      }),
    record: (records, limits) =>
      state.sync(() => {
        const done = new Set<string>()
        const answered = new Map<string, { at: number; answered: boolean; hung: number }>()
        for (const r of records) {
          const d = t().deliveries.get(r.delivery.id)
          if (d === undefined || d.attempts !== r.delivery.attempts || d.status !== "pending") continue
          const succeeded = r.result._tag === "Succeeded"
          t().deliveries.set(d.id, {
            ...d,
            status: succeeded ? "succeeded" : r.result._tag === "GaveUp" ? "failed" : "pending",
            roundFailures: succeeded ? d.roundFailures : d.roundFailures + 1,
            availableAt: r.result._tag === "Retry" ? r.result.retryAt : d.availableAt,
            nextAttemptAt: r.result._tag === "Retry" ? r.result.retryAt : null,
            responseCode: r.responseCode,
            responseTimeMs: r.responseTimeMs,
            error: r.error,
            deliveredAt: succeeded ? r.at : null
          })
          const webhook = t().webhooks.get(d.webhookId)
          if (webhook !== undefined) {
            const failingSince = succeeded ? null : (webhook.failingSince ?? r.at)
            if (failingSince !== webhook.failingSince) t().webhooks.set(webhook.id, { ...webhook, failingSince })
          }
          const seen = answered.get(d.webhookId) ?? { at: r.at, answered: false, hung: 0 }
          answered.set(d.webhookId, {
            at: Math.max(seen.at, r.at),
            answered: seen.answered || !r.hung,
            hung: seen.hung + (r.hung ? 1 : 0)
          })
          done.add(d.id)
        }
        for (const [webhookId, seen] of answered) circuit(webhookId, seen, limits)
        return done
      }),
    list: (workspaceId, webhookId, query) =>
      state.sync(() =>
        [...t().deliveries.values()]
          .filter(
            (d) =>
              d.workspaceId === workspaceId &&
              d.webhookId === webhookId &&
              (query.before === undefined || d.id < query.before) &&
              (query.status === undefined || d.status === query.status)
          )
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(0, query.limit)
          .map(plain)
      ),
    find: (workspaceId, id) =>
      state.sync(() =>
        Option.map(
          Option.filter(Option.fromNullishOr(t().deliveries.get(id)), (d) => d.workspaceId === workspaceId),
          plain
        )
      ),
    redeliver: (workspaceId, id, now) =>
      state.sync(() => {
        const d = t().deliveries.get(id)
        if (d === undefined || d.workspaceId !== workspaceId) return Option.none()
        if (isLeased(d, now)) return Option.some(plain(d))
        const next: Stored = {
          ...d,
          status: "pending",
          roundFailures: 0,
          availableAt: now,
          nextAttemptAt: now,
          deliveredAt: null
        }
        t().deliveries.set(id, next)
        return Option.some(plain(next))
      }),
    pendingCount: () => state.sync(() => [...t().deliveries.values()].filter((d) => d.status === "pending").length)
  } satisfies WebhookDeliveriesShape
})

export const layer = Layer.effect(WebhookDeliveries)(make)
