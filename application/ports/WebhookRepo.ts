import { Context, type Effect, type Option } from "effect"
import type { Webhook } from "../../domain/webhooks.ts"

export interface WebhookRepoShape {
  readonly insert: (webhook: Webhook) => Effect.Effect<void>
  /** A workspace's endpoints, oldest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<Webhook>>
  readonly find: (workspaceId: string, id: string) => Effect.Effect<Option.Option<Webhook>>
  /** Replaces an endpoint's fields; false when it is gone. */
  readonly update: (webhook: Webhook) => Effect.Effect<boolean>
  /** Removes an endpoint with its deliveries; false when there was none. */
  readonly delete: (workspaceId: string, id: string) => Effect.Effect<boolean>
}

/** Registered webhook endpoints. */
export class WebhookRepo extends Context.Service<WebhookRepo, WebhookRepoShape>()("herald/WebhookRepo") {}
