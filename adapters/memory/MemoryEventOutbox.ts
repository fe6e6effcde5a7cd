import { Effect, Layer } from "effect"
import { EventOutbox, type EventOutboxShape, type StoredEvent } from "../../application/ports/EventOutbox.ts"
import { deliveryIdOf, subscribes, TEST_DELIVERY_HELD_MS } from "../../domain/webhooks.ts"
import { MemoryState } from "./MemoryState.ts"

const position = (seq: number) => String(seq)

/** The outbox on the shared memory state: transactions run one at a time, so the feed never has a gap to wait for. */
export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const t = () => state.tables
  let seq = 0
  return {
    append: (events) =>
      state.sync(() => {
        for (const event of events) {
          const stored = { ...event, seq: ++seq }
          t().events.set(event.id, stored)
          for (const webhook of t().webhooks.values()) {
            if (webhook.workspaceId !== event.workspaceId) continue
            if (
              event.onlyWebhookId !== undefined ? webhook.id !== event.onlyWebhookId : !subscribes(webhook, event.type)
            )
              continue
            const id = deliveryIdOf(event.id, webhook.id)
            const plannedAt = event.createdAt + (event.onlyWebhookId === undefined ? 0 : TEST_DELIVERY_HELD_MS)
            t().deliveries.set(id, {
              id,
              webhookId: webhook.id,
              workspaceId: event.workspaceId,
              eventId: event.id,
              eventType: event.type,
              status: "pending",
              attempts: 0,
              roundFailures: 0,
              createdAt: event.createdAt,
              nextAttemptAt: plannedAt,
              lastAttemptAt: null,
              responseCode: null,
              responseTimeMs: null,
              error: null,
              deliveredAt: null,
              availableAt: plannedAt,
              seq: stored.seq,
              orderingKey: event.orderingKey
            })
          }
        }
      }),
    list: (workspaceId, query) =>
      state.sync(() => {
        const after = query.after === null ? 0 : Number(query.after)
        const types = query.types ?? []
        return [...t().events.values()]
          .filter(
            (e) =>
              e.workspaceId === workspaceId &&
              e.seq > after &&
              e.onlyWebhookId === undefined &&
              (query.resourceId === undefined || e.resource.id === query.resourceId) &&
              (types.length === 0 || types.includes(e.type))
          )
          .sort((a, b) => a.seq - b.seq)
          .slice(0, query.limit)
          .map(
            (e): StoredEvent => ({
              id: e.id,
              type: e.type,
              createdAt: e.createdAt,
              body: e.body,
              position: position(e.seq)
            })
          )
      }),
    latest: (workspaceId) =>
      state.sync(() => {
        let last = 0
        for (const e of t().events.values()) if (e.workspaceId === workspaceId && e.seq > last) last = e.seq
        return last === 0 ? null : position(last)
      }),
    sweep: (before, limit) =>
      state.sync(() => {
        const old = [...t().events.values()].filter((e) => e.createdAt < before).slice(0, limit)
        const gone = new Set(old.map((e) => e.id))
        for (const e of old) t().events.delete(e.id)
        for (const [id, d] of t().deliveries) if (gone.has(d.eventId)) t().deliveries.delete(id)
        return old.length
      })
  } satisfies EventOutboxShape
})

export const layer = Layer.effect(EventOutbox)(make)
