import { Effect, Layer, Option } from "effect"
import { WebhookRepo, type WebhookRepoShape } from "../../application/ports/WebhookRepo.ts"
import { MemoryState } from "./MemoryState.ts"

export const make = Effect.gen(function* () {
  const state = yield* MemoryState
  const webhooks = () => state.tables.webhooks
  const own = (workspaceId: string, id: string) =>
    Option.filter(Option.fromNullishOr(webhooks().get(id)), (w) => w.workspaceId === workspaceId)
  return {
    insert: (webhook) => state.sync(() => void webhooks().set(webhook.id, webhook)),
    list: (workspaceId) =>
      state.sync(() =>
        [...webhooks().values()].filter((w) => w.workspaceId === workspaceId).sort((a, b) => (a.id < b.id ? -1 : 1))
      ),
    find: (workspaceId, id) => state.sync(() => own(workspaceId, id)),
    update: (webhook) =>
      state.sync(() => {
        if (Option.isNone(own(webhook.workspaceId, webhook.id))) return false
        webhooks().set(webhook.id, webhook)
        return true
      }),
    delete: (workspaceId, id) =>
      state.sync(() => {
        if (Option.isNone(own(workspaceId, id))) return false
        webhooks().delete(id)
        for (const [k, d] of state.tables.deliveries) if (d.webhookId === id) state.tables.deliveries.delete(k)
        return true
      })
  } satisfies WebhookRepoShape
})

export const layer = Layer.effect(WebhookRepo)(make)
