import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { metricsSummary, postMetrics, refreshPostMetrics } from "../../../application/usecases/metrics/query.ts"
import type { Actor } from "../../../domain/apiKey.ts"
import type { HeraldError } from "../../../domain/errors.ts"
import { HeraldApi } from "../api.ts"
import { CurrentActor } from "../security.ts"
import { json, runner } from "./request.ts"

type Services =
  | Effect.Services<ReturnType<typeof postMetrics>>
  | Effect.Services<ReturnType<typeof refreshPostMetrics>>
  | Effect.Services<ReturnType<typeof metricsSummary>>

export const layer = HttpApiBuilder.group(HeraldApi, "metrics", (handlers) =>
  Effect.gen(function* () {
    const run = yield* runner<Services>()
    const withActor = <A>(f: (actor: Actor) => Effect.Effect<A, HeraldError, Services>) =>
      run(Effect.flatMap(CurrentActor, (actor) => Effect.map(f(actor), (body) => json(body))))
    return handlers
      .handle("post", ({ params }) => withActor((actor) => postMetrics(actor, params.id)))
      .handle("refresh", ({ params }) => withActor((actor) => refreshPostMetrics(actor, params.id)))
      .handle("summary", ({ query }) => withActor((actor) => metricsSummary(actor, query)))
  })
)
