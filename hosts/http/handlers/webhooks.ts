import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { listEvents } from "../../../application/usecases/webhooks/feed.ts"
import * as Manage from "../../../application/usecases/webhooks/manage.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof Manage.createWebhook>>
  | Effect.Services<ReturnType<typeof Manage.testWebhook>>
  | Effect.Services<ReturnType<typeof Manage.listDeliveries>>

export const layer = HttpApiBuilder.group(HeraldApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    return handlers
      .handle("create", ({ payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Manage.createWebhook(actor, payload), (body) => json(body, 201))
          )
        )
      )
      .handle("list", () => run(Effect.flatMap(CurrentActor, Manage.listWebhooks)))
      .handle("get", ({ params }) => run(Effect.flatMap(CurrentActor, (actor) => Manage.getWebhook(actor, params.id))))
      .handle("update", ({ params, payload }) =>
        run(
          Effect.flatMap(CurrentActor, (actor) =>
            Effect.map(Manage.updateWebhook(actor, params.id, payload), (body) => json(body))
          )
        )
      )
      .handle("remove", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Manage.deleteWebhook(actor, params.id)))
      )
      .handle("test", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Manage.testWebhook(actor, params.id)))
      )
      .handle("deliveries", ({ params, query }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Manage.listDeliveries(actor, params.id, query)))
      )
      .handle("redeliver", ({ params }) =>
        run(Effect.flatMap(CurrentActor, (actor) => Manage.redeliver(actor, params.id, params.deliveryId)))
      )
  })
)

export const eventsLayer = HttpApiBuilder.group(HeraldApi, "events", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Effect.Services<ReturnType<typeof listEvents>>>()
    // The events as stored (bodies already in their wire shape), not re-encoded.
    return handlers.handle("list", ({ query }) =>
      run(Effect.flatMap(CurrentActor, (actor) => Effect.map(listEvents(actor, query), (body) => json(body))))
    )
  })
)
