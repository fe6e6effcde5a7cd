import { Effect, Schema } from "effect"
import { offeredNetworks } from "../../../application/usecases/accounts.ts"
import { getMedia } from "../../../application/usecases/media/read.ts"
import { listEvents, MAX_WAIT_SECONDS } from "../../../application/usecases/webhooks/feed.ts"
import * as Manage from "../../../application/usecases/webhooks/manage.ts"
import { NetworkList } from "../../../domain/contract/account.ts"
import { EventList } from "../../../domain/contract/events.ts"
import { MediaEnvelope } from "../../../domain/contract/media.ts"
import * as W from "../../../domain/contract/webhook.ts"
import { tool } from "../tool.ts"

// The REST API's webhooks, deliveries, events feed, media details and networks offered, as tools on the same use cases.

const webhookId = Schema.String.annotate({ description: "The webhook's id (whk_...), from list_webhooks" })
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

export const createWebhookTool = tool({
  name: "create_webhook",
  title: "Register a webhook endpoint",
  description:
    "Registers a public https URL that Herald POSTs the workspace's events to (post approved, rejected, published, failed, ...), signed with the Standard Webhooks scheme. The signing secret is in this answer only. Without a public URL, use wait_for_post or list_events instead.",
  input: W.CreateWebhookRequest,
  output: W.CreatedWebhook,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (args, call) => Manage.createWebhook(call.actor, args)
})

export const listWebhooksTool = tool({
  name: "list_webhooks",
  title: "List webhook endpoints",
  description: "The workspace's webhook endpoints: URL, event types, whether on, and why one was turned off.",
  input: Schema.Struct({}),
  output: W.WebhookList,
  annotations: readOnly,
  run: (_args, call) => Manage.listWebhooks(call.actor)
})

export const updateWebhookTool = tool({
  name: "update_webhook",
  title: "Change a webhook endpoint",
  description:
    "Changes a webhook's URL, event types, description or enabled state (fields left out stay). Turning it on again clears its failing streak.",
  input: Schema.Struct({ webhookId, ...W.UpdateWebhookRequest.fields }),
  output: W.WebhookEnvelope,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ webhookId: id, ...changes }, call) => Manage.updateWebhook(call.actor, id, changes)
})

export const deleteWebhookTool = tool({
  name: "delete_webhook",
  title: "Delete a webhook endpoint",
  description: "Deletes a webhook endpoint of the workspace: no more events are sent to it. This cannot be undone.",
  input: Schema.Struct({ webhookId }),
  output: W.DeletedWebhook,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (args, call) => Manage.deleteWebhook(call.actor, args.webhookId)
})

export const testWebhookTool = tool({
  name: "test_webhook",
  title: "Send a test event to a webhook",
  description:
    "Sends a webhook.test event to the endpoint now and answers with the delivery: the receiver's status and time, or why it failed.",
  input: Schema.Struct({ webhookId }),
  output: W.DeliveryEnvelope,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (args, call) => Manage.testWebhook(call.actor, args.webhookId)
})

export const listDeliveriesTool = tool({
  name: "list_webhook_deliveries",
  title: "List a webhook's deliveries",
  description:
    "A webhook endpoint's deliveries, newest first: event, status (pending, succeeded, failed), the receiver's answer, attempts. Page with cursor from nextCursor.",
  input: Schema.Struct({
    webhookId,
    limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
    status: Schema.optional(Schema.Literals(["pending", "succeeded", "failed"])),
    cursor: Schema.optional(Schema.String.annotate({ description: "nextCursor of the previous page" }))
  }),
  output: W.DeliveryList,
  annotations: readOnly,
  run: (args, call) =>
    Manage.listDeliveries(call.actor, args.webhookId, {
      limit: args.limit === undefined ? undefined : String(args.limit),
      status: args.status,
      cursor: args.cursor
    })
})

export const redeliverTool = tool({
  name: "redeliver_webhook_delivery",
  title: "Send a webhook delivery again",
  description: "Sends a delivery again from the start of its retry schedule, with the same event id.",
  input: Schema.Struct({
    webhookId,
    deliveryId: Schema.String.annotate({ description: "dlv_..., from list_webhook_deliveries" })
  }),
  output: W.DeliveryEnvelope,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (args, call) => Manage.redeliver(call.actor, args.webhookId, args.deliveryId)
})

export const listEventsTool = tool({
  name: "list_events",
  title: "Read (or wait for) the workspace's events",
  description: [
    "The workspace's events oldest first, the same objects webhooks deliver (post.approved, post.rejected, post.published, ...).",
    "Pass after (nextCursor of the last call) to read on; with waitSeconds (up to 60) the call waits for the next event.",
    "For one post's decision, wait_for_post is simpler."
  ].join(" "),
  input: Schema.Struct({
    after: Schema.optional(Schema.String.annotate({ description: "nextCursor of the previous call" })),
    limit: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
    types: Schema.optional(Schema.Array(Schema.String).annotate({ description: "Only these event types" })),
    postId: Schema.optional(Schema.String.annotate({ description: "Only events about this post" })),
    waitSeconds: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_WAIT_SECONDS })))
  }),
  output: EventList,
  annotations: readOnly,
  // The events as stored: already the wire shape webhooks deliver (EventList), not decoded again.
  run: (args, call) =>
    Effect.map(
      listEvents(call.actor, {
        after: args.after,
        limit: args.limit === undefined ? undefined : String(args.limit),
        types: args.types?.join(","),
        postId: args.postId,
        waitSeconds: args.waitSeconds === undefined ? undefined : String(args.waitSeconds)
      }),
      (body) => body as typeof EventList.Type
    )
})

export const getMediaTool = tool({
  name: "get_media",
  title: "Get an upload's details",
  description:
    "An upload's details: type, size, dimensions, duration, its URL, when it expires, and which networks can take it.",
  input: Schema.Struct({ mediaId: Schema.String.annotate({ description: "med_..., from upload_media" }) }),
  output: MediaEnvelope,
  annotations: readOnly,
  run: (args, call) => getMedia(call.actor, args.mediaId)
})

export const listNetworksTool = tool({
  name: "list_networks",
  title: "List the networks this Herald connects",
  description: "The networks this server offers (those configured): connect_account takes each platform.",
  input: Schema.Struct({}),
  output: NetworkList,
  annotations: readOnly,
  run: () => offeredNetworks()
})

export const webhookTools = [
  listNetworksTool,
  getMediaTool,
  listEventsTool,
  createWebhookTool,
  listWebhooksTool,
  updateWebhookTool,
  deleteWebhookTool,
  testWebhookTool,
  listDeliveriesTool,
  redeliverTool
]
