import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { batchFromCsv, batchFromJson, createBatch } from "../../../application/usecases/planning/batch.ts"
import { listQueue, reorderQueue } from "../../../application/usecases/planning/queue.ts"
import { getSchedules, putSchedules, setQueuePaused } from "../../../application/usecases/planning/schedules.ts"
import { invalidFields } from "../../../domain/errors.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof getSchedules>>
  | Effect.Services<ReturnType<typeof putSchedules>>
  | Effect.Services<ReturnType<typeof setQueuePaused>>
  | Effect.Services<ReturnType<typeof listQueue>>
  | Effect.Services<ReturnType<typeof reorderQueue>>
  | Effect.Services<ReturnType<typeof createBatch>>

/** `true`/`false` in the query string; anything else names the parameter. */
const flag = (name: string, value: string | undefined) =>
  value === undefined
    ? Effect.succeed(undefined)
    : value === "true" || value === "false"
      ? Effect.succeed(value === "true")
      : Effect.fail(invalidFields([name], `${name} is true or false.`))

export const layer = HttpApiBuilder.group(HeraldApi, "planning", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    const withActor = <A, R>(
      f: (
        actor: import("../../../domain/apiKey.ts").Actor
      ) => Effect.Effect<A, import("../../../domain/errors.ts").HeraldError, R>
    ) => run(Effect.flatMap(CurrentActor, (actor) => Effect.map(f(actor), (body) => json(body))))
    return handlers
      .handle("schedules", () => withActor(getSchedules))
      .handle("putSchedules", ({ payload }) => withActor((actor) => putSchedules(actor, payload)))
      .handle("queue", ({ params, query }) => withActor((actor) => listQueue(actor, params.id, query)))
      .handle("reorder", ({ params, payload }) => withActor((actor) => reorderQueue(actor, params.id, payload.postIds)))
      .handle("pause", ({ params }) => withActor((actor) => setQueuePaused(actor, params.id, true)))
      .handle("resume", ({ params }) => withActor((actor) => setQueuePaused(actor, params.id, false)))
      .handle("batch", ({ payload, query, headers }) =>
        run(
          Effect.gen(function* () {
            const actor = yield* CurrentActor
            const options = { atomic: yield* flag("atomic", query.atomic), dryRun: yield* flag("dryRun", query.dryRun) }
            const input =
              typeof payload === "string" ? yield* batchFromCsv(payload, options) : batchFromJson(payload, options)
            const result = yield* createBatch(actor, input, headers["idempotency-key"] ?? null)
            return json(result, result.created > 0 ? 201 : 200)
          })
        )
      )
  })
)
